extension PNG {
    /// Turns a region of a pixel buffer into the filtered scanlines of one
    /// zlib stream (PNG §7–9), Adam7 passes included.
    struct ScanlineEncoder {
        let layout: Layout
        let interlaced: Bool
        let filtering: Encoder.Filtering

        /// The filtered scanlines of the `width`×`height` region at (`x`, `y`).
        func scanlines(of pixels: PixelBuffer, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
            let header = Header(width: width, height: height, bitDepth: layout.bitDepth,
                                colorType: layout.colorType, interlaced: interlaced)
            let passes = Interlace.passes(header: header, width: width, height: height)
            var out: [UInt8] = []
            out.reserveCapacity(passes.reduce(0) { $0 + $1.streamBytes })
            let bpp = header.filterStride
            // Filters help little on palette and sub-byte images (PNG §12.8).
            let adaptive = filtering == .adaptive && layout.colorType != .indexed && layout.bitDepth >= 8
            for pass in passes where !pass.isEmpty {
                var prior = [UInt8](repeating: 0, count: pass.rowBytes)
                var row = [UInt8](repeating: 0, count: pass.rowBytes)
                var candidate = [UInt8](repeating: 0, count: pass.rowBytes)
                var best = [UInt8](repeating: 0, count: pass.rowBytes)
                for j in 0..<pass.height {
                    pack(pixels, y: y + pass.y0 + j * pass.dy, x: x + pass.x0, step: pass.dx, count: pass.width, into: &row)
                    if adaptive {
                        var bestType: UInt8 = 0
                        var bestScore = Int.max
                        for type in UInt8(0)...4 {
                            Self.filter(type, row: row, prior: prior, bpp: bpp, into: &candidate)
                            let score = Self.score(candidate)
                            if score < bestScore {
                                bestScore = score
                                bestType = type
                                swap(&best, &candidate)
                            }
                        }
                        out.append(bestType)
                        out.append(contentsOf: best)
                    } else {
                        let type = filtering.fixedType ?? 0
                        Self.filter(type, row: row, prior: prior, bpp: bpp, into: &candidate)
                        out.append(type)
                        out.append(contentsOf: candidate)
                    }
                    swap(&prior, &row)
                }
            }
            return out
        }

        /// The minimum-sum-of-absolute-differences heuristic (PNG §12.8): bytes
        /// read as signed values, smaller sums compress better.
        static func score(_ row: [UInt8]) -> Int {
            row.withUnsafeBufferPointer { bytes in
                var sum = 0
                for byte in bytes { sum &+= Int(Int8(bitPattern: byte).magnitude) }
                return sum
            }
        }

        /// Applies filter `type` (PNG §9.2) to `row`, whose previous row is `prior`.
        static func filter(_ type: UInt8, row: [UInt8], prior: [UInt8], bpp: Int, into out: inout [UInt8]) {
            row.withUnsafeBufferPointer { x in
                prior.withUnsafeBufferPointer { b in
                    out.withUnsafeMutableBufferPointer { o in
                        // All three buffers have the row's length (the caller allocates them so).
                        let count = min(x.count, b.count, o.count)
                        let head = min(bpp, count)
                        switch type {
                        case 1:
                            for i in 0..<head { o[i] = x[i] }
                            for i in head..<count { o[i] = x[i] &- x[i &- bpp] }
                        case 2:
                            for i in 0..<count { o[i] = x[i] &- b[i] }
                        case 3:
                            for i in 0..<head { o[i] = x[i] &- (b[i] >> 1) }
                            for i in head..<count {
                                o[i] = x[i] &- UInt8(truncatingIfNeeded: (UInt16(x[i &- bpp]) &+ UInt16(b[i])) >> 1)
                            }
                        case 4:
                            for i in 0..<head { o[i] = x[i] &- b[i] }
                            for i in head..<count { o[i] = x[i] &- Unfilter.predictor(x[i &- bpp], b[i], b[i &- bpp]) }
                        default:
                            for i in 0..<count { o[i] = x[i] }
                        }
                    }
                }
            }
        }

        /// Writes `count` pixels of row `y`, starting at `x` every `step`, in the layout.
        private func pack(_ pixels: PixelBuffer, y: Int, x: Int, step: Int, count: Int, into row: inout [UInt8]) {
            let width = pixels.width
            if pixels.format == .rgba8 && layout.colorType == .rgba && step == 1 {
                // The stored layout is the buffer's own: copy the row's span.
                let start = (y * width + x) * 4
                row.withUnsafeMutableBytes { out in
                    pixels.bytes.withUnsafeBytes { raw in
                        out.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + count * 4)]))
                    }
                }
                return
            }
            var previousKey: UInt32?
            var previousIndex: UInt8 = 0
            pixels.bytes.withUnsafeBytes { raw in
                row.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count {
                        let index = y * width + x + i * step
                        switch pixels.format {
                        case .rgba8:
                            let p = raw.loadUnaligned(fromByteOffset: index * 4, as: SIMD4<UInt8>.self)
                            switch layout.colorType {
                            case .grayscale: out[i] = p[0]
                            case .grayscaleAlpha: out[i * 2] = p[0]; out[i * 2 + 1] = p[3]
                            case .rgb: out[i * 3] = p[0]; out[i * 3 + 1] = p[1]; out[i * 3 + 2] = p[2]
                            case .rgba: for c in 0..<4 { out[i * 4 + c] = p[c] }
                            case .indexed:
                                let key = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                                if key != previousKey {
                                    previousKey = key
                                    previousIndex = layout.indices[key] ?? 0
                                }
                                let value = previousIndex
                                switch layout.bitDepth {
                                case 8: out[i] = value
                                default:
                                    let perByte = 8 / layout.bitDepth
                                    let shift = 8 - layout.bitDepth * (i % perByte + 1)
                                    if i % perByte == 0 { out[i / perByte] = 0 }
                                    out[i / perByte] |= value << UInt8(shift)
                                }
                            }
                        case .rgba16:
                            let p = raw.loadUnaligned(fromByteOffset: index * 8, as: SIMD4<UInt16>.self)
                            let channels: [Int] = switch layout.colorType {
                            case .grayscale: [0]
                            case .grayscaleAlpha: [0, 3]
                            case .rgb: [0, 1, 2]
                            default: [0, 1, 2, 3]
                            }
                            for (k, c) in channels.enumerated() {
                                out[(i * channels.count + k) * 2] = UInt8(truncatingIfNeeded: p[c] >> 8)
                                out[(i * channels.count + k) * 2 + 1] = UInt8(truncatingIfNeeded: p[c])
                            }
                        }
                    }
                }
            }
        }
    }
}
