extension Resampler {
    /// The resampler fed one source row at a time, top to bottom, so that a
    /// decoder that produces rows (PNG, sequential JPEG) never holds the whole
    /// source image.
    ///
    /// Pass 1 of ``Resampler`` runs as rows arrive: each row is converted, added
    /// into the current box of `ky` rows (when the reduction is large enough
    /// for a box pre-reduction) and, once the box is complete, convolved with
    /// the horizontal weights into one row of the intermediate image
    /// (`outputWidth` wide, one row per box). Pass 2 runs in ``finish()``.
    /// Memory: the intermediate image plus two working rows; the arithmetic,
    /// and so every output pixel, is the same as the whole-image resampler's.
    struct Stream: Sendable {
        let format: PixelFormat
        let linearLight: Bool
        /// The source rectangle taken from every row, and the rows it spans.
        let x0: Int, y0: Int, rectWidth: Int, rectHeight: Int
        let outputWidth: Int, outputHeight: Int
        /// Box factors of the pre-reduction (1: none).
        let kx: Int, ky: Int
        let workWidth: Int, workHeight: Int
        let horizontal: WeightTable
        let vertical: WeightTable
        let table: [Float]
        private var intermediate: [SIMD4<Float>]
        private var row: [SIMD4<Float>]
        /// Source rows received so far (of the whole source, not the rectangle).
        private(set) var rowsReceived = 0
        /// Rows added into the current box.
        private var rowsInBox = 0
        /// Intermediate rows complete.
        private var workRow = 0

        /// Prepares a resample of the rectangle (`x`, `y`, `width`, `height`,
        /// already validated to lie inside the source) to `outputWidth` ×
        /// `outputHeight`; limits are checked before anything is allocated.
        init(_ resampler: Resampler, format: PixelFormat, x: Int, y: Int, width: Int, height: Int,
             outputWidth: Int, outputHeight: Int) throws(TransformError) {
            let limits = resampler.limits
            guard outputWidth <= limits.maxWidth else { throw .limitExceeded(.width) }
            guard outputHeight <= limits.maxHeight else { throw .limitExceeded(.height) }
            guard width > 0, height > 0 else { throw .emptyImage }
            let kx = Resampler.reductionFactor(input: width, output: outputWidth, gap: resampler.reducingGap)
            let ky = Resampler.reductionFactor(input: height, output: outputHeight, gap: resampler.reducingGap)
            let workWidth = (width + kx - 1) / kx
            let workHeight = (height + ky - 1) / ky
            // Both factors are now bounded (32 768 by default; the source row by its own size).
            let simdSize = MemoryLayout<SIMD4<Float>>.stride
            let working = (outputWidth &* workHeight &+ workWidth &+ outputWidth) &* simdSize
            try limits.checkTransformOutput(width: outputWidth, height: outputHeight, format: format,
                                            workingBytes: working)
            self.format = format
            self.linearLight = resampler.linearLight
            self.x0 = x
            self.y0 = y
            self.rectWidth = width
            self.rectHeight = height
            self.outputWidth = outputWidth
            self.outputHeight = outputHeight
            self.kx = kx
            self.ky = ky
            self.workWidth = workWidth
            self.workHeight = workHeight
            horizontal = WeightTable(inputSize: workWidth, inputExtent: Double(width) / Double(kx),
                                     outputSize: outputWidth, filter: resampler.filter)
            vertical = WeightTable(inputSize: workHeight, inputExtent: Double(height) / Double(ky),
                                   outputSize: outputHeight, filter: resampler.filter)
            table = SampleTables.toWorking(format: format, linear: resampler.linearLight)
            intermediate = [SIMD4<Float>](repeating: SIMD4(), count: outputWidth * workHeight)
            row = [SIMD4<Float>](repeating: SIMD4(), count: workWidth)
        }

        /// Whether every row the rectangle needs has arrived.
        var isComplete: Bool { workRow == workHeight }

        /// Takes the next `count` source rows, stored one after another at
        /// `rows` in `format`, each `bytesPerRow` bytes (at least
        /// `(x + width) × bytesPerPixel`); rows outside the rectangle are skipped.
        mutating func append(rows: UnsafeRawPointer, count: Int, bytesPerRow: Int) {
            guard count > 0, !isComplete, bytesPerRow >= (x0 &+ rectWidth) &* format.bytesPerPixel else { return }
            let format = self.format, kx = self.kx, ky = self.ky, rectWidth = self.rectWidth
            let workWidth = self.workWidth, outputWidth = self.outputWidth
            let rectEnd = y0 &+ rectHeight
            let rectOffset = x0 &* format.bytesPerPixel
            var received = rowsReceived, inBox = rowsInBox, workRow = self.workRow
            let horizontal = self.horizontal
            // Every pointer below comes from a scoped closure over an array sized in `init`;
            // `workRow` < `workHeight` whenever a row is written, and source rows were checked above.
            table.withUnsafeBufferPointer { table in
                row.withUnsafeMutableBufferPointer { row in
                    intermediate.withUnsafeMutableBufferPointer { intermediate in
                        guard let table = table.baseAddress, let row = row.baseAddress,
                              let out = intermediate.baseAddress else { return }
                        for i in 0..<count {
                            let sy = received
                            received &+= 1
                            guard sy >= y0, sy < rectEnd else { continue }
                            let source = rows + (i &* bytesPerRow &+ rectOffset)
                            if kx == 1 && ky == 1 {
                                WorkingPixels.load(source, count: rectWidth, format: format, table: table, into: row)
                                Resampler.convolveRow(row, horizontal, into: out + workRow &* outputWidth)
                                workRow &+= 1
                                continue
                            }
                            if inBox == 0 { row.update(repeating: SIMD4(), count: workWidth) }
                            WorkingPixels.accumulateBoxes(source, count: rectWidth, factor: kx, format: format,
                                                          table: table, into: row)
                            inBox &+= 1
                            if inBox == ky || sy == rectEnd &- 1 {
                                Resampler.normaliseBoxes(row, count: workWidth, width: rectWidth, factor: kx, rows: inBox)
                                Resampler.convolveRow(row, horizontal, into: out + workRow &* outputWidth)
                                workRow &+= 1
                                inBox = 0
                            }
                        }
                    }
                }
            }
            rowsReceived = received
            rowsInBox = inBox
            self.workRow = workRow
        }

        /// Pass 2: intermediate columns → output rows. Rows that never arrived
        /// count as transparent black (a truncated source), as they do in the
        /// image a decoder returns for it.
        func finish() -> PixelBuffer {
            guard isComplete else {
                var padded = self
                let rowBytes = (x0 &+ rectWidth) &* format.bytesPerPixel
                let zeros = [UInt8](repeating: 0, count: rowBytes)
                zeros.withUnsafeBytes { raw in
                    guard let zero = raw.baseAddress else { return }
                    // One zero row per call, until the rectangle's last row has been taken.
                    while !padded.isComplete && padded.rowsReceived < y0 &+ rectHeight {
                        padded.append(rows: zero, count: 1, bytesPerRow: rowBytes)
                    }
                }
                return padded.finishComplete()
            }
            return finishComplete()
        }

        private func finishComplete() -> PixelBuffer {
            var output = PixelBuffer(width: outputWidth, height: outputHeight, format: format)
            var accumulator = [SIMD4<Float>](repeating: SIMD4(), count: outputWidth)
            let outputRowBytes = output.bytesPerRow
            let linear = linearLight, format = self.format, outputWidth = self.outputWidth
            let vertical = self.vertical
            intermediate.withUnsafeBufferPointer { intermediate in
                accumulator.withUnsafeMutableBufferPointer { accumulator in
                    output.bytes.withUnsafeMutableBytes { outputBytes in
                        vertical.weights.withUnsafeBufferPointer { weights in
                            guard let source = intermediate.baseAddress, let acc = accumulator.baseAddress,
                                  let destination = outputBytes.baseAddress, let weights = weights.baseAddress else { return }
                            // Runs were clamped to the `workHeight` intermediate rows when the table was built.
                            for y in 0..<outputHeight {
                                let start = vertical.starts[y], count = vertical.counts[y]
                                let w = weights + y &* vertical.stride
                                acc.update(repeating: SIMD4(), count: outputWidth)
                                for t in 0..<count {
                                    let weight = SIMD4<Float>(repeating: w[t])
                                    let sourceRow = source + (start &+ t) &* outputWidth
                                    for x in 0..<outputWidth {
                                        acc[x] += weight * sourceRow[x]
                                    }
                                }
                                WorkingPixels.store(acc, count: outputWidth, format: format, linear: linear,
                                                    into: destination + y &* outputRowBytes)
                            }
                        }
                    }
                }
            }
            return output
        }
    }
}
