extension GIF {
    /// Walks a GIF one composed frame at a time, from a file in memory or from
    /// bytes pushed as they arrive.
    ///
    /// It holds at most the canvas, the rectangle a "restore to previous" frame
    /// covers, the current frame's palette indices and the input not yet read
    /// (in push mode, at most the last chunk), so a 1000-frame animation is
    /// processed in the memory of one frame plus whatever frames the caller
    /// keeps. The byte budget of ``DecodingLimits`` covers exactly that working
    /// memory; the frame limit still applies.
    ///
    /// ```swift
    /// var frames = GIF.FrameIterator(fileBytes)
    /// while let frame = try frames.next() { show(frame.pixels, for: frame.duration) }
    ///
    /// var stream = GIF.FrameIterator(options: DecodingOptions())
    /// for chunk in network {
    ///     stream.append(chunk)
    ///     while let frame = try stream.next() { show(frame) }
    /// }
    /// stream.endOfInput()
    /// while let frame = try stream.next() { show(frame) }   // throws if the file was cut inside a frame
    /// ```
    public struct FrameIterator: Sendable {
        /// Input not read yet starts at `offset`.
        private var buffer: [UInt8]
        private var offset = 0
        private var inputEnded: Bool
        private var reader: FrameReader
        private let firstFrameOnly: Bool
        private let mode: DecodingOptions.Mode
        private var failure: ImageDecodingError?
        /// Whether the last frame has been returned (``next()`` returns `nil` from now on).
        public private(set) var isFinished = false

        /// An iterator over the frames of `bytes`, a complete file.
        public init(_ bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) {
            buffer = Array(bytes)
            inputEnded = true
            reader = FrameReader(limits: options.limits, mode: options.mode)
            firstFrameOnly = options.firstFrameOnly
            mode = options.mode
        }

        /// An iterator fed with ``append(_:)`` as the bytes arrive.
        public init(options: DecodingOptions) {
            buffer = []
            inputEnded = false
            reader = FrameReader(limits: options.limits, mode: options.mode)
            firstFrameOnly = options.firstFrameOnly
            mode = options.mode
        }

        /// Adds the next bytes of the file (push mode). Bytes after ``endOfInput()`` are ignored.
        public mutating func append(_ bytes: some Collection<UInt8>) {
            guard !inputEnded else { return }
            // Everything before `offset` has been read; the lexer stages what it still needs.
            buffer.removeFirst(offset)
            offset = 0
            buffer.append(contentsOf: bytes)
        }

        /// Says that no more bytes will come (push mode).
        public mutating func endOfInput() {
            inputEnded = true
        }

        /// Canvas size and the rest of the header, once it has been read.
        public var screen: LogicalScreen? { reader.screen }

        /// What a lenient decode recovered from so far (see ``GIF/Decoder``).
        public var warnings: [DecodingWarning] { reader.warnings }

        /// The loop count read so far, as ``Image/loopCount`` reports it
        /// (final once ``isFinished``).
        public var loopCount: Int {
            guard let field = reader.loopField else { return 1 }
            return field == 0 ? 0 : field &+ 1
        }

        /// The next composed frame; `nil` after the last one, or, in push mode
        /// before ``endOfInput()``, when the bytes so far hold no further complete frame.
        ///
        /// - Throws: the decoder's errors; ``ImageDecodingError/truncated`` when the input
        ///   ended inside a frame (that frame is not returned) or before the first one.
        public mutating func next() throws(ImageDecodingError) -> ImageFrame? {
            if let failure { throw failure }
            if isFinished { return nil }
            do throws(ImageDecodingError) {
                let step = try buffer.withDecodingBytes { (raw) throws(ImageDecodingError) in try reader.read(raw, &offset) }
                switch step {
                case .frame(let frame):
                    if firstFrameOnly { isFinished = true }
                    return frame
                case .end:
                    isFinished = true
                    return nil
                case .needMoreData:
                    guard inputEnded else { return nil }
                    // As GIF.Decoder.finish(): strict fails, lenient keeps what there is.
                    let inProgress = reader.frameInProgress()
                    guard mode == .lenient, reader.frameCount > 0 else { throw .truncated }
                    reader.noteEndOfInput()
                    isFinished = true
                    return inProgress
                }
            } catch {
                failure = error
                throw error
            }
        }
    }
}
