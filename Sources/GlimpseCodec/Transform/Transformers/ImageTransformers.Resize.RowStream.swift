extension ImageTransformers.Resize {
    /// This resize applied to an image whose rows arrive one after another,
    /// top to bottom, as a decoder produces them: the source is never held
    /// whole. Memory is the output-wide intermediate image (one row per box of
    /// the pre-reduction) plus two working rows, so a 5120×2880 source resized
    /// to 256×144 needs about 2 MB instead of 59 MB.
    ///
    /// The output is the same, pixel for pixel, as ``transform(_:)-(PixelBuffer)``
    /// on the whole source (EXIF orientation is not applied here: the caller
    /// turns the small result upright, with the target box transposed when the
    /// orientation swaps the axes).
    ///
    /// ```swift
    /// var stream = try resize.rowStream(sourceWidth: w, sourceHeight: h, format: .rgba8)
    /// // for each band of decoded rows:
    /// stream.append(rows: band, count: n, bytesPerRow: w * 4)
    /// let thumbnail = stream.finish()
    /// ```
    public struct RowStream: Sendable {
        private var stream: Resampler.Stream?
        /// The source when the resize changes nothing (no crop, same size):
        /// rows are copied as they come.
        private var copy: PixelBuffer?
        private var copied = 0

        public let sourceWidth: Int
        public let sourceHeight: Int
        public let format: PixelFormat
        public let outputWidth: Int
        public let outputHeight: Int

        init(_ resize: ImageTransformers.Resize, sourceWidth: Int, sourceHeight: Int,
             format: PixelFormat) throws(TransformError) {
            let plan = try resize.plan(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
            self.format = format
            outputWidth = plan.outputWidth
            outputHeight = plan.outputHeight
            if plan.outputWidth == sourceWidth && plan.outputHeight == sourceHeight
                && plan.cropWidth == sourceWidth && plan.cropHeight == sourceHeight {
                try resize.limits.checkTransformOutput(width: sourceWidth, height: sourceHeight, format: format)
                copy = PixelBuffer(width: sourceWidth, height: sourceHeight, format: format)
                return
            }
            let resampler = Resampler(filter: resize.filter, linearLight: resize.linearLight,
                                      reducingGap: resize.reducingGap, limits: resize.limits)
            stream = try Resampler.Stream(resampler, format: format, x: plan.cropX, y: plan.cropY,
                                          width: plan.cropWidth, height: plan.cropHeight,
                                          outputWidth: plan.outputWidth, outputHeight: plan.outputHeight)
        }

        /// Rows of the source received so far.
        public var rowsReceived: Int { stream?.rowsReceived ?? copied }

        /// Takes the next `count` source rows, stored one after another at
        /// `rows`, `bytesPerRow` apart (at least `sourceWidth` pixels of
        /// ``format`` each). Rows past the source's height are ignored.
        public mutating func append(rows: UnsafeRawPointer, count: Int, bytesPerRow: Int) {
            let rowBytes = sourceWidth &* format.bytesPerPixel
            guard count > 0, bytesPerRow >= rowBytes else { return }
            if stream != nil {
                stream?.append(rows: rows, count: count, bytesPerRow: bytesPerRow)
                return
            }
            guard var copy else { return }
            self.copy = nil
            let taken = min(count, sourceHeight &- copied)
            copy.bytes.withUnsafeMutableBytes { out in
                // `copied + taken` ≤ `sourceHeight` rows of `rowBytes` fit the buffer made in `init`;
                // the caller vouches for `count` rows of `bytesPerRow` at `rows`.
                guard let base = out.baseAddress else { return }
                for i in 0..<taken {
                    (base + (copied &+ i) &* rowBytes).copyMemory(from: rows + i &* bytesPerRow, byteCount: rowBytes)
                }
            }
            copied &+= max(0, taken)
            self.copy = copy
        }

        /// The resized image. Source rows that never arrived (a truncated
        /// decode) count as transparent black.
        public func finish() -> PixelBuffer {
            if let stream { return stream.finish() }
            return copy ?? PixelBuffer(width: outputWidth, height: outputHeight, format: format)
        }
    }

    /// A ``RowStream`` for a source of this size and format. Throws what
    /// ``transform(_:)-(PixelBuffer)`` would throw for it (invalid parameters,
    /// limits), before anything is allocated.
    public func rowStream(sourceWidth: Int, sourceHeight: Int, format: PixelFormat) throws(TransformError) -> RowStream {
        try RowStream(self, sourceWidth: sourceWidth, sourceHeight: sourceHeight, format: format)
    }
}
