extension PNG {
    /// Turns one zlib stream of filtered scanlines (the IDAT image, or one APNG
    /// frame's fdAT data) into pixels, as the compressed bytes arrive.
    ///
    /// Stages, with no copy between them: zlib inflates into a window of many
    /// rows (large inflate calls are cheaper than row-sized ones); complete rows
    /// are unfiltered in place, the previous row serving as `prior`; each row is
    /// then expanded straight into its place in the output (Adam7 rows to every
    /// `dx`-th pixel of every `dy`-th row). Non-interlaced RGB and RGBA rows
    /// skip the in-place step: they are unfiltered and expanded in one pass
    /// from the window into the output (`directStride`). Inflating stops being useful once
    /// the expected number of bytes is out: later output is only checked (the
    /// Adler-32 trailer) and dropped, so the window never grows.
    struct ScanlineDecoder: Sendable {
        let expander: Expander
        let passes: [Pass]
        let filterStride: Int
        let frameWidth: Int
        let outputBytesPerPixel: Int
        /// Bytes per pixel (3, 4, 6, 8) when rows are unfiltered straight into
        /// the RGBA8 output: RGB without tRNS and RGBA, 8- or 16-bit, not
        /// interlaced. 0 otherwise.
        let directStride: Int
        private var zlib = ZlibReader()
        /// Inflated rows; zlib fills `capacity` bytes, the rest is slack that
        /// lets a row's last pixel be loaded as 4 bytes.
        private var window: [UInt8]
        private let capacity: Int
        private var zeros: [UInt8]
        private var filled = 0
        /// Offset of the next unprocessed row's filter byte.
        private var next = 0
        /// Offset of the previous row's filter byte; -1 for the first row of a pass.
        private var prior = -1
        private(set) var passIndex = 0
        private(set) var rowInPass = 0
        /// Every expected byte has been inflated and expanded.
        private(set) var rowsDone = false
        /// The zlib stream ended (after the Adler-32 check).
        private(set) var streamEnded = false
        /// Non-zero when the output buffer holds a band of this many rows rather
        /// than the whole image: rows are handed to a ``RowSink`` as the band
        /// fills (non-interlaced images only).
        let bandHeight: Int
        /// The image row held in the band's first row.
        private(set) var bandStart = 0

        /// Receives the rows of each full band in band mode.
        typealias RowSink = (PNG.RowDecoder.Rows) -> Void

        /// Bytes of inflated rows held at once: large enough that zlib is called
        /// rarely, small enough that rows are still in cache when unfiltered.
        static let windowTarget = 1 << 19

        /// Readable bytes after the window's last row (see ``Unfilter/rgba8(_:_:prior:_:width:stride:)``).
        static let windowSlack = 8

        /// Bytes the decoder allocates for its own work for an image of this shape.
        static func workingBytes(header: Header, width: Int, height: Int) -> Int {
            let passes = Interlace.passes(header: header, width: width, height: height)
            let total = passes.reduce(0) { $0 &+ $1.streamBytes }
            let maxStride = (passes.map(\.rowBytes).max() ?? 0) &+ 1
            let zeros = max(maxStride, width &* 8)
            return min(total, max(maxStride &* 2, PNG.ScanlineDecoder.windowTarget)) &+ windowSlack &+ zeros
        }

        /// `bandHeight` > 0 decodes into a band of that many rows (see
        /// ``feed(_:into:rows:)``); the image must not be interlaced.
        init(header: Header, width: Int, height: Int, expander: Expander, bandHeight: Int = 0) {
            self.expander = expander
            self.bandHeight = header.interlaced ? 0 : max(0, bandHeight)
            self.passes = Interlace.passes(header: header, width: width, height: height)
            self.filterStride = header.filterStride
            self.frameWidth = width
            self.outputBytesPerPixel = expander.outputBytesPerPixel
            let total = passes.reduce(0) { $0 &+ $1.streamBytes }
            let maxRow = passes.map(\.rowBytes).max() ?? 0
            capacity = min(total, max((maxRow &+ 1) &* 2, PNG.ScanlineDecoder.windowTarget))
            window = [UInt8](repeating: 0, count: capacity &+ PNG.ScanlineDecoder.windowSlack)
            // Direct rows read the row above from the output, which a band does not always hold.
            let plain = passes.count == 1 && passes[0].dx == 1 && !expander.wide && self.bandHeight == 0
            switch expander.kind {
            case .rgb8 where plain && expander.key == nil: directStride = 3
            case .rgba8 where plain: directStride = 4
            case .rgb16 where plain && expander.key == nil: directStride = 6
            case .rgba16 where plain: directStride = 8
            default: directStride = 0
            }
            // Direct rows read the first row's `prior` as an output row.
            zeros = [UInt8](repeating: 0, count: max(maxRow, directStride > 0 ? width &* 4 : 0))
            while passIndex < passes.count, passes[passIndex].isEmpty { passIndex &+= 1 }
            rowsDone = passIndex == passes.count
        }

        /// Passes fully decoded so far (1 for a finished non-interlaced image).
        var completedPasses: Int { rowsDone ? passes.count : passIndex }

        /// Rows of the current (or only) pass decoded so far.
        var rowsDecoded: Int { rowsDone ? (passes.last?.height ?? 0) : rowInPass }

        /// Inflates `input` and decodes every row it completes into `pixels`,
        /// a `frameWidth`-wide buffer.
        mutating func feed(_ input: UnsafeRawBufferPointer, into pixels: inout PixelBuffer) throws(ImageDecodingError) {
            try feed(input, into: &pixels) { _ in }
        }

        /// ``feed(_:into:)`` for band mode: `pixels` holds ``bandHeight`` rows,
        /// and `rows` receives each band once it is full (the last one when the
        /// image's last row is decoded).
        mutating func feed(_ input: UnsafeRawBufferPointer, into pixels: inout PixelBuffer,
                           rows sink: RowSink) throws(ImageDecodingError) {
            zlib.makeUnique()
            var input = input
            while true {
                if rowsDone {
                    try drain(input)
                    return
                }
                if streamEnded { throw .truncated }
                if filled == capacity { compact() }
                let before = filled, end = capacity
                let remaining = input.count
                var zlib = self.zlib
                let output = window.withUnsafeMutableBytes { w in
                    zlib.inflate(&input, into: UnsafeMutableRawBufferPointer(rebasing: w[before..<end]))
                }
                self.zlib = zlib
                let produced = output.produced
                filled &+= produced
                // Rows inflated before a zlib error come first in the stream, and
                // so do their errors.
                if directStride > 0 {
                    try decodeDirectRows(into: &pixels)
                } else {
                    try decodeRows(into: &pixels, rows: sink)
                }
                if let error = output.error { throw error }
                if zlib.ended {
                    streamEnded = true
                    if !rowsDone { throw .truncated }
                    return
                }
                if produced == 0 && input.count == remaining { return }
                if input.isEmpty && filled < capacity { return }
            }
        }

        /// Checks the rest of the stream (up to its Adler-32) without keeping it.
        private mutating func drain(_ input: UnsafeRawBufferPointer) throws(ImageDecodingError) {
            var input = input
            var scratch = [UInt8](repeating: 0, count: 0)
            while !streamEnded, !input.isEmpty {
                if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: 4096) }
                let remaining = input.count
                var zlib = self.zlib
                let output = scratch.withUnsafeMutableBytes { s in zlib.inflate(&input, into: s) }
                self.zlib = zlib
                if let error = output.error { throw error }
                let produced = output.produced
                if zlib.ended { streamEnded = true }
                if produced == 0 && input.count == remaining { return }
            }
        }

        /// Moves the previous row and the incomplete one to the front of the window.
        private mutating func compact() {
            let keep = prior >= 0 ? prior : next
            guard keep > 0 else { return }
            let count = filled &- keep
            window.withUnsafeMutableBytes { w in
                // Both ranges lie inside the window; copyMemory handles the overlap like memmove.
                guard let base = w.baseAddress else { return }
                base.copyMemory(from: base.advanced(by: keep), byteCount: count)
            }
            if prior >= 0 { prior &-= keep }
            next &-= keep
            filled = count
        }

        /// ``decodeRows(into:)`` for `directStride > 0`: one pass, rows go
        /// from the window into the output, unfiltered against the output row
        /// above, so the window keeps no `prior` row.
        private mutating func decodeDirectRows(into pixels: inout PixelBuffer) throws(ImageDecodingError) {
            guard let pass = passes.first, !rowsDone else { return }
            var failure: ImageDecodingError?
            let pixelBytes = directStride
            let width = frameWidth
            let rowBytes = pass.rowBytes, stride = pass.rowBytes &+ 1, height = pass.height
            let outRow = width &* 4
            let filled = self.filled
            var next = self.next, row = self.rowInPass
            window.withUnsafeBufferPointer { w in
                zeros.withUnsafeBytes { z in
                    pixels.bytes.withUnsafeMutableBytes { out in
                        guard let base = w.baseAddress, let zero = z.baseAddress, let dst = out.baseAddress,
                              rowBytes == width &* pixelBytes, z.count >= outRow, out.count >= height &* outRow else {
                            failure = .malformed(.png(.imageBufferMismatch))
                            return
                        }
                        // Rows are complete in the window (filled − next ≥ stride per row used) and the
                        // window has `windowSlack` readable bytes past `filled`; output rows `row` (and the
                        // next one or three, when checked against `height`) lie inside the buffer checked above.
                        while row < height, filled &- next >= stride {
                            let filter = base[next]
                            let src = base + (next &+ 1)
                            let above = row > 0 ? UnsafeRawPointer(dst + (row &- 1) &* outRow) : zero
                            let following = next &+ stride
                            // Four Average or Paeth rows complete in the window, all inside the image.
                            if Unfilter.canPairRGBA8(filter), row &+ 3 < height, filled &- next >= 4 &* stride,
                               base[following] == filter, base[following &+ stride] == filter,
                               base[following &+ 2 &* stride] == filter,
                               Unfilter.rgba8Quad(filter, src, srcStride: stride, prior: above, dst + row &* outRow,
                                                  dstStride: outRow, width: width, stride: pixelBytes) {
                                next &+= 4 &* stride
                                row &+= 4
                                continue
                            }
                            if row &+ 1 < height, filled &- following >= stride, base[following] == filter,
                               Unfilter.canPairRGBA8(filter) {
                                Unfilter.rgba8Pair(filter, src, base + (following &+ 1), prior: above,
                                                   dst + row &* outRow, dst + (row &+ 1) &* outRow, width: width, stride: pixelBytes)
                                next = following &+ stride
                                row &+= 2
                                continue
                            }
                            do throws(ImageDecodingError) {
                                try Unfilter.rgba8(filter, src, prior: above, dst + row &* outRow, width: width, stride: pixelBytes)
                            } catch {
                                failure = error
                                return
                            }
                            next = following
                            row &+= 1
                        }
                    }
                }
            }
            self.next = next
            self.rowInPass = row
            if row == height {
                rowInPass = 0
                passIndex = passes.count
                rowsDone = true
            }
            if let failure { throw failure }
        }

        private mutating func decodeRows(into pixels: inout PixelBuffer, rows sink: RowSink) throws(ImageDecodingError) {
            var failure: ImageDecodingError?
            let passes = self.passes
            let expander = self.expander
            let bpp = filterStride
            let outBpp = outputBytesPerPixel
            let width = frameWidth
            let outputCount = pixels.bytes.count
            let filled = self.filled
            var next = self.next, prior = self.prior
            var passIndex = self.passIndex, rowInPass = self.rowInPass, rowsDone = self.rowsDone
            let bandHeight = self.bandHeight, rowBytes = width &* outBpp
            var bandStart = self.bandStart
            // The row at `next` was already unfiltered together with the one above it.
            var unfiltered = false
            window.withUnsafeMutableBufferPointer { w in
                zeros.withUnsafeBufferPointer { z in
                    pixels.bytes.withUnsafeMutableBytes { out in
                        guard let base = w.baseAddress, let zero = z.baseAddress, let dst = out.baseAddress else { return }
                        while !rowsDone {
                            let pass = passes[passIndex]
                            let stride = pass.rowBytes &+ 1
                            guard filled &- next >= stride else { return }
                            let row = base + (next &+ 1)
                            let above = prior >= 0 ? UnsafePointer(base + (prior &+ 1)) : zero
                            let following = next &+ stride
                            if unfiltered {
                                unfiltered = false
                            } else if rowInPass &+ 1 < pass.height, filled &- following >= stride, base[next] == base[following],
                                      Unfilter.canPair(base[next], count: pass.rowBytes, bpp: bpp) {
                                // Both rows are complete in the window and in the same pass.
                                Unfilter.pair(base[next], row, base + (following &+ 1), above, count: pass.rowBytes, bpp: bpp)
                                unfiltered = true
                            } else {
                                do throws(ImageDecodingError) {
                                    // `row` and `above` hold `rowBytes` bytes each: complete rows of the window, or `zeros`.
                                    try Unfilter.apply(base[next], row: row, prior: above, count: pass.rowBytes, bpp: bpp)
                                } catch {
                                    failure = error
                                    return
                                }
                            }
                            let y = pass.y0 &+ rowInPass &* pass.dy
                            let offset = ((y &- bandStart) &* width &+ pass.x0) &* outBpp
                            guard offset >= 0, offset < outputCount else { failure = .malformed(.png(.imageBufferMismatch)); return }
                            // The pass geometry keeps every written pixel inside the `width`-wide frame.
                            expander.expand(row, count: pass.width, into: dst + offset, step: pass.dx &* outBpp)
                            prior = next
                            next &+= stride
                            rowInPass &+= 1
                            if rowInPass == pass.height {
                                rowInPass = 0
                                prior = -1
                                passIndex &+= 1
                                while passIndex < passes.count, passes[passIndex].isEmpty { passIndex &+= 1 }
                                if passIndex == passes.count { rowsDone = true }
                            }
                            // A band is full, or the image's last row is in: hand the rows over.
                            if bandHeight > 0, y &- bandStart &+ 1 == bandHeight || rowsDone {
                                let count = y &- bandStart &+ 1
                                // `count` rows of `rowBytes` were written from the start of the band (offset check above).
                                sink(PNG.RowDecoder.Rows(
                                    bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(out)[0..<(count &* rowBytes)]),
                                    firstRow: bandStart, count: count, width: width, height: pass.height,
                                    format: outBpp == 8 ? .rgba16 : .rgba8))
                                bandStart = y &+ 1
                            }
                        }
                    }
                }
            }
            self.next = next
            self.prior = prior
            self.passIndex = passIndex
            self.rowInPass = rowInPass
            self.rowsDone = rowsDone
            self.bandStart = bandStart
            if let failure { throw failure }
        }
    }
}
