extension GIF {
    /// Walks a GIF held in memory one composed frame at a time.
    ///
    /// It holds at most the canvas, the rectangle a "restore to previous" frame
    /// covers and the current frame's palette indices, so a 1000-frame
    /// animation is processed in the memory of one frame (plus whatever frames
    /// the caller keeps). The byte budget of ``DecodingLimits`` covers exactly
    /// that working memory; the frame limit still applies.
    ///
    /// ```swift
    /// var frames = GIF.FrameIterator(bytes)
    /// while let frame = try frames.next() { show(frame.pixels, for: frame.duration) }
    /// ```
    public struct FrameIterator: Sendable {
        private let bytes: [UInt8]
        private var offset = 0
        private var reader: FrameReader
        private let firstFrameOnly: Bool
        private var failure: DecodingError?
        private var isFinished = false

        /// An iterator over the frames of `bytes` (a complete file).
        public init(_ bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) {
            self.bytes = Array(bytes)
            reader = FrameReader(limits: options.limits)
            firstFrameOnly = options.firstFrameOnly
        }

        /// Canvas size and the rest of the header, once the first call to ``next()`` has read it.
        public var screen: LogicalScreen? { reader.screen }

        /// The loop count read so far, as ``Image/loopCount`` reports it
        /// (final once ``next()`` has returned `nil`).
        public var loopCount: Int {
            guard let field = reader.loopField else { return 1 }
            return field == 0 ? 0 : field &+ 1
        }

        /// The next composed frame, or `nil` after the last one.
        ///
        /// - Throws: the decoder's errors; ``DecodingError/truncated`` when the data
        ///   ends inside a frame (that frame is not returned) or before the first one.
        public mutating func next() throws(DecodingError) -> ImageFrame? {
            if let failure { throw failure }
            if isFinished { return nil }
            do throws(DecodingError) {
                let step = try bytes.withDecodingBytes { (raw) throws(DecodingError) in try reader.read(raw, &offset) }
                switch step {
                case .frame(let frame):
                    if firstFrameOnly { isFinished = true }
                    return frame
                case .end:
                    isFinished = true
                    return nil
                case .needMoreData:
                    guard reader.isBetweenFrames, reader.frameCount > 0 else { throw .truncated }
                    isFinished = true
                    return nil
                }
            } catch {
                failure = error
                throw error
            }
        }
    }
}
