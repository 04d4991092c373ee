extension JPEG {
    /// Turns the pixel rows of one MCU row into quantised coefficient blocks:
    /// colour conversion, downsampling, edge padding, forward DCT and
    /// quantisation, in libjpeg's order and with its padding rules
    /// (`jcprepct.c`, `jcsample.c`, `jccoefct.c`) so that every block,
    /// partial MCUs included, equals libjpeg-turbo's.
    struct BlockTransformer: Sendable {
        let layout: EncodingLayout
        /// Per component: its samples for one MCU row, `paddedBlocksPerRow × 8`
        /// wide and `verticalSampling × 8` rows.
        private var samplePlanes: [[UInt8]]
        /// Full-resolution rows of subsampled components before downsampling
        /// (`paddedWidth` × `mcuHeight`); empty for the others.
        private var conversionPlanes: [[UInt8]]
        /// Divisors of the luma and chroma tables.
        private let divisors: [[UInt16]]
        /// One RGBA8 row (flattened or narrowed input).
        private var rgbaRow: [UInt8]
        private let alpha: EncodingOptions.AlphaHandling

        init(layout: EncodingLayout, tables: [QuantizationTable], alpha: EncodingOptions.AlphaHandling) {
            self.layout = layout
            self.alpha = alpha
            divisors = tables.map(\.divisors16)
            samplePlanes = layout.components.map {
                [UInt8](repeating: 0, count: $0.paddedBlocksPerRow &* 64 &* $0.verticalSampling)
            }
            conversionPlanes = layout.components.map {
                $0.isSubsampled ? [UInt8](repeating: 0, count: layout.paddedWidth &* layout.mcuHeight) : []
            }
            rgbaRow = [UInt8](repeating: 0, count: layout.width &* 4 &+ 64)
        }

        /// Converts pixel row `row` (0 ..< mcuHeight) of the current MCU row.
        /// `pixels` holds `width` RGBA8 or RGBA16 pixels.
        mutating func convertRow(_ row: Int, pixels: UnsafeRawBufferPointer, format: PixelFormat) {
            let width = layout.width, paddedWidth = layout.paddedWidth
            var flat = rgbaRow
            rgbaRow = []
            // Each component's samples go straight into row `row` of its plane: the sample plane of
            // a full-size component, the conversion plane of a subsampled one (both paddedWidth wide,
            // at least mcuHeight rows). The planes are taken out of `self` so that three can be
            // written at once.
            let colour = layout.components.count == 3
            var plane0 = takePlane(0), plane1: [UInt8] = [], plane2: [UInt8] = []
            if colour {
                plane1 = takePlane(1)
                plane2 = takePlane(2)
            }
            plane0.withUnsafeMutableBufferPointer { p0 in
                plane1.withUnsafeMutableBufferPointer { p1 in
                    plane2.withUnsafeMutableBufferPointer { p2 in
                        let offset = row &* paddedWidth
                        let y = p0.baseAddress.unsafelyUnwrapped + offset
                        let cb = colour ? p1.baseAddress.unsafelyUnwrapped + offset : nil
                        let cr = colour ? p2.baseAddress.unsafelyUnwrapped + offset : nil
                        // RGBA8 rows are converted in place; when they hold transparent pixels that must be
                        // flattened (the conversion reports the AND of the alpha samples), again from a
                        // flattened copy.
                        var done = false
                        if format == .rgba8 {
                            // `pixels` holds width × 4 bytes (checked by the row sink).
                            let alphaAnd = ColorConverter.convert(rgba: pixels.baseAddress.unsafelyUnwrapped, count: width,
                                                                  y: y, cb: cb, cr: cr)
                            done = alpha == .ignore || alphaAnd == 255
                        }
                        if !done {
                            flat.withUnsafeMutableBytes { out in
                                // `rgbaRow` holds width × 4 (+ 64) bytes.
                                let base = out.baseAddress.unsafelyUnwrapped
                                Self.flatten(pixels, format: format, count: width, alpha: alpha,
                                             into: base.assumingMemoryBound(to: UInt8.self))
                                _ = ColorConverter.convert(rgba: UnsafeRawPointer(base), count: width, y: y, cb: cb, cr: cr)
                            }
                        }
                        Self.replicateRight(y, from: width, to: paddedWidth)
                        if let cb, let cr {
                            Self.replicateRight(cb, from: width, to: paddedWidth)
                            Self.replicateRight(cr, from: width, to: paddedWidth)
                        }
                    }
                }
            }
            putPlane(0, plane0)
            if colour {
                putPlane(1, plane1)
                putPlane(2, plane2)
            }
            rgbaRow = flat
        }

        /// Component c's full-resolution plane (its sample plane, or its
        /// conversion plane when subsampled), moved out of `self`.
        private mutating func takePlane(_ c: Int) -> [UInt8] {
            if layout.components[c].isSubsampled {
                let plane = conversionPlanes[c]
                conversionPlanes[c] = []
                return plane
            }
            let plane = samplePlanes[c]
            samplePlanes[c] = []
            return plane
        }

        private mutating func putPlane(_ c: Int, _ plane: [UInt8]) {
            if layout.components[c].isSubsampled {
                conversionPlanes[c] = plane
            } else {
                samplePlanes[c] = plane
            }
        }

        /// Pads, downsamples and transforms the MCU row whose first `rows`
        /// pixel rows were converted, into `store` at MCU row `storeRow`
        /// (the block rows `storeRow × v ..< (storeRow + 1) × v`), `mcuRow`
        /// being its index in the image (for the edge rules).
        mutating func transform(rows: Int, mcuRow: Int, into store: inout CoefficientStore, storeRow: Int) {
            let maxV = layout.maxVerticalSampling
            let paddedWidth = layout.paddedWidth
            // libjpeg first pads the input to whole row groups (max_v_samp rows).
            let groupRows = (rows + maxV - 1) / maxV * maxV
            for c in layout.components.indices {
                let component = layout.components[c]
                let planeWidth = component.paddedBlocksPerRow &* 8
                let v = component.verticalSampling
                let realRows: Int
                if component.isSubsampled {
                    conversionPlanes[c].withUnsafeMutableBufferPointer { full in
                        let full = full.baseAddress.unsafelyUnwrapped
                        for row in rows..<groupRows {
                            (full + row &* paddedWidth).update(from: full + (rows &- 1) &* paddedWidth, count: paddedWidth)
                        }
                    }
                    realRows = groupRows / maxV &* v
                    downsample(c, groupRows: groupRows)
                } else {
                    realRows = rows
                }
                // …then repeats the last output row down to the end of the MCU row.
                samplePlanes[c].withUnsafeMutableBufferPointer { plane in
                    let plane = plane.baseAddress.unsafelyUnwrapped
                    for row in realRows..<(v &* 8) {
                        (plane + row &* planeWidth).update(from: plane + (realRows &- 1) &* planeWidth, count: planeWidth)
                    }
                }
                transformBlocks(c, mcuRow: mcuRow, into: &store, storeRow: storeRow)
            }
        }

        private mutating func downsample(_ c: Int, groupRows: Int) {
            let component = layout.components[c]
            let hExpand = layout.maxHorizontalSampling / component.horizontalSampling
            let vExpand = layout.maxVerticalSampling / component.verticalSampling
            let outWidth = component.paddedBlocksPerRow &* 8
            let paddedWidth = layout.paddedWidth
            let outRows = groupRows / vExpand
            conversionPlanes[c].withUnsafeBufferPointer { full in
                samplePlanes[c].withUnsafeMutableBufferPointer { out in
                    // Output column x reads input columns 2x, 2x+1 < paddedWidth
                    // because outWidth × hExpand <= paddedWidth.
                    let full = full.baseAddress.unsafelyUnwrapped, out = out.baseAddress.unsafelyUnwrapped
                    for row in 0..<outRows {
                        let o = out + row &* outWidth
                        // Eight outputs at a time from 16 input bytes per row, read as eight little-endian
                        // 16-bit pairs (outWidth is a multiple of 8, so the last read ends at 2·outWidth).
                        typealias Pairs = SIMD8<UInt16>
                        @inline(__always) func pairs(_ p: UnsafePointer<UInt8>) -> Pairs {
                            UnsafeRawPointer(p).loadUnaligned(as: Pairs.self).littleEndianPairs
                        }
                        let lowByte = Pairs(repeating: 0xFF)
                        if vExpand == 2 {
                            let a = full + (2 &* row) &* paddedWidth, b = a + paddedWidth
                            // jcsample.c h2v2: bias alternates 1, 2 along the row.
                            let bias = Pairs(1, 2, 1, 2, 1, 2, 1, 2)
                            var x = 0
                            while x < outWidth {
                                let p = pairs(a + 2 &* x), q = pairs(b + 2 &* x)
                                let sum = (p & lowByte) &+ (p &>> 8) &+ (q & lowByte) &+ (q &>> 8) &+ bias
                                Self.store8(sum &>> 2, o + x)
                                x &+= 8
                            }
                        } else if hExpand == 2 {
                            let a = full + row &* paddedWidth
                            // jcsample.c h2v1: bias alternates 0, 1.
                            let bias = Pairs(0, 1, 0, 1, 0, 1, 0, 1)
                            var x = 0
                            while x < outWidth {
                                let p = pairs(a + 2 &* x)
                                Self.store8(((p & lowByte) &+ (p &>> 8) &+ bias) &>> 1, o + x)
                                x &+= 8
                            }
                        }
                    }
                }
            }
        }

        private func transformBlocks(_ c: Int, mcuRow: Int, into store: inout CoefficientStore, storeRow: Int) {
            let component = layout.components[c]
            let h = component.horizontalSampling, v = component.verticalSampling
            let planeWidth = component.paddedBlocksPerRow &* 8
            let blocksPerRow = component.paddedBlocksPerRow
            samplePlanes[c].withUnsafeBufferPointer { plane in
                // The divisors and the block in between the passes, in 16-byte aligned vectors.
                withUnsafeTemporaryAllocation(of: SIMD8<UInt16>.self, capacity: 24) { table in
                    divisors[component.table].withUnsafeBytes { raw in
                        // 192 entries: three tables of 64 (QuantizationTable.divisors16).
                        for i in 0..<24 { table[i] = raw.loadUnaligned(fromByteOffset: i &* 16, as: SIMD8<UInt16>.self) }
                    }
                    let offset = store.offsets[c]
                    store.coefficients.withUnsafeMutableBufferPointer { blocks in
                        store.acZero.withUnsafeMutableBufferPointer { flags in
                            withUnsafeTemporaryAllocation(of: SIMD8<Int16>.self, capacity: 8) { scratch in
                                let plane = plane.baseAddress.unsafelyUnwrapped
                                let divisors = UnsafePointer(table.baseAddress.unsafelyUnwrapped)
                                // Component c's blocks start at its offset; the block rows addressed below are
                                // those of the store row, within the rows the store holds.
                                let blocks = blocks.baseAddress.unsafelyUnwrapped + offset
                                // One flag per block of `blocks`, from the same origin.
                                let flags = flags.baseAddress.unsafelyUnwrapped + offset / 64
                                // 64 coefficients in natural order, before the zig-zag reordering.
                                let natural = scratch.baseAddress.unsafelyUnwrapped
                                for by in 0..<v {
                                    let imageBlockRow = mcuRow &* v &+ by
                                    let rowBlocks = blocks + ((storeRow &* v &+ by) &* blocksPerRow) &* 64
                                    for bx in 0..<blocksPerRow {
                                        let out = rowBlocks + bx &* 64
                                        let flag = flags + ((storeRow &* v &+ by) &* blocksPerRow &+ bx)
                                        if imageBlockRow < component.heightInBlocks && bx < component.widthInBlocks {
                                            // The block's 8 × 8 samples lie inside the plane (bx < padded blocks, by < v).
                                            let source = plane + ((by &* 8) &* planeWidth &+ bx &* 8)
                                            let acZero = ForwardDCT.transformBlock(source, stride: planeWidth, divisors: divisors,
                                                                                   into: natural)
                                            flag.pointee = acZero
                                            if acZero {
                                                // Only the DC is non-zero: both orders agree.
                                                out.initialize(repeating: 0, count: 64)
                                                out[0] = UnsafeRawPointer(natural).load(as: Int16.self)
                                            } else {
                                                ZigZag.reorder(UnsafeRawPointer(natural), into: out)
                                            }
                                        } else {
                                            // jccoefct.c dummy blocks: zero AC, DC of the block to the left
                                            // (right edge) or of the MCU's last block one row up (bottom).
                                            flag.pointee = true
                                            out.initialize(repeating: 0, count: 64)
                                            if imageBlockRow < component.heightInBlocks {
                                                out[0] = (out - 64)[0]
                                            } else {
                                                let mcuLast = (bx / h) &* h &+ h &- 1
                                                out[0] = (rowBlocks - blocksPerRow &* 64 + mcuLast &* 64)[0]
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Stores the low bytes of eight lanes (each 0…255) at `out`.
        @inline(__always)
        private static func store8(_ v: SIMD8<UInt16>, _ out: UnsafeMutablePointer<UInt8>) {
            // Byte stores of consecutive lanes, which LLVM merges into a pack and one 8-byte store.
            for i in 0..<8 { out[i] = UInt8(truncatingIfNeeded: v[i]) }
        }

        /// Repeats the sample at `from − 1` up to `to` (libjpeg's `expand_right_edge`).
        @inline(__always)
        private static func replicateRight(_ row: UnsafeMutablePointer<UInt8>, from: Int, to: Int) {
            guard from < to else { return }
            (row + from).update(repeating: row[from &- 1], count: to &- from)
        }

        /// RGBA8 or RGBA16 (high byte) to opaque RGBA8, compositing or ignoring alpha.
        private static func flatten(_ pixels: UnsafeRawBufferPointer, format: PixelFormat, count: Int,
                                    alpha: EncodingOptions.AlphaHandling, into rgb: UnsafeMutablePointer<UInt8>) {
            let stride = format.bytesPerPixel
            let high = format == .rgba16
            var background = (0, 0, 0), flattens = false
            if case .flatten(let r, let g, let b) = alpha { background = (Int(r), Int(g), Int(b)); flattens = true }
            for x in 0..<count {
                let base = x &* stride
                var r: Int, g: Int, b: Int, a: Int
                if high {
                    r = Int(pixels.loadUnaligned(fromByteOffset: base, as: UInt16.self) >> 8)
                    g = Int(pixels.loadUnaligned(fromByteOffset: base &+ 2, as: UInt16.self) >> 8)
                    b = Int(pixels.loadUnaligned(fromByteOffset: base &+ 4, as: UInt16.self) >> 8)
                    a = Int(pixels.loadUnaligned(fromByteOffset: base &+ 6, as: UInt16.self) >> 8)
                } else {
                    r = Int(pixels[base]); g = Int(pixels[base &+ 1]); b = Int(pixels[base &+ 2]); a = Int(pixels[base &+ 3])
                }
                if flattens && a != 255 {
                    let inverse = 255 &- a
                    r = (r &* a &+ background.0 &* inverse &+ 127) / 255
                    g = (g &* a &+ background.1 &* inverse &+ 127) / 255
                    b = (b &* a &+ background.2 &* inverse &+ 127) / 255
                }
                rgb[x &* 4] = UInt8(truncatingIfNeeded: r)
                rgb[x &* 4 &+ 1] = UInt8(truncatingIfNeeded: g)
                rgb[x &* 4 &+ 2] = UInt8(truncatingIfNeeded: b)
                rgb[x &* 4 &+ 3] = 255
            }
        }
    }
}
