extension WebP {
    /// Walks a WebP file one composed frame at a time, from a file in memory or from
    /// bytes pushed as they arrive; a still image is one frame.
    ///
    /// It holds the canvas, the frame being decoded and the input not read yet (in push
    /// mode at most one chunk, staged until it is complete), so a long animation is
    /// processed in the memory of about one frame plus whatever frames the caller keeps.
    /// The byte budget of ``DecodingLimits`` covers exactly that working memory; the
    /// frame limit still applies.
    ///
    /// ```swift
    /// var frames = WebP.FrameIterator(fileBytes)
    /// while let frame = try frames.next() { show(frame.pixels, for: frame.duration) }
    ///
    /// var stream = WebP.FrameIterator(options: DecodingOptions())
    /// for chunk in network {
    ///     stream.append(chunk)
    ///     while let frame = try stream.next() { show(frame) }
    /// }
    /// stream.endOfInput()
    /// while let frame = try stream.next() { show(frame) }   // throws if the file was cut
    /// ```
    public struct FrameIterator: Sendable {
        /// Input not read yet starts at `offset`.
        private var buffer: [UInt8]
        private var offset = 0
        private var inputEnded: Bool
        private var reader: FrameReader
        private let firstFrameOnly: Bool
        private var failure: ImageDecodingError?
        /// Whether the last frame has been returned (``next()`` returns `nil` from now on).
        public private(set) var isFinished = false

        /// An iterator over the frames of `bytes`, a complete file.
        public init(_ bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) {
            buffer = Array(bytes)
            countedFrames = buffer.withUnsafeBytes { FrameCounter.count(file: $0) }
            inputEnded = true
            reader = FrameReader(options: options)
            firstFrameOnly = options.firstFrameOnly
        }

        /// An iterator fed with ``append(_:)`` as the bytes arrive.
        public init(options: DecodingOptions) {
            buffer = []
            inputEnded = false
            reader = FrameReader(options: options)
            firstFrameOnly = options.firstFrameOnly
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

        /// Canvas width and height, once known.
        public var canvasSize: (width: Int, height: Int)? { reader.canvasSize }

        /// Frames counted from an animation's chunk headers at `init` (a whole file).
        private var countedFrames: Int?

        /// The number of frames when known without decoding them: an animation's `ANMF`
        /// chunks once the whole file is at hand (counted at `init` for a file in memory, or
        /// when the rest of the file arrives in one piece), 1 for a still image once its
        /// header is read.
        public var frameCount: Int? {
            if let count = countedFrames ?? reader.countedFrames { return count }
            return canvasSize != nil && !isAnimated ? 1 : nil
        }

        /// Whether the file is an animation (its `VP8X` says so).
        public var isAnimated: Bool { reader.isAnimated }

        /// The `ANIM` chunk, once read (background colour and loop count).
        public var animationHeader: AnimationHeader? { reader.animation }

        /// The loop count as ``Image/loopCount`` reports it.
        public var loopCount: Int { reader.animation?.loopCount ?? 1 }

        /// ICC profile and EXIF orientation read so far.
        public var metadata: ImageMetadata { reader.metadata }

        /// The next composed frame; `nil` after the last one, or, in push mode before
        /// ``endOfInput()``, when the bytes so far hold no further complete frame.
        ///
        /// - Throws: the decoder's errors; ``ImageDecodingError/truncated`` when the input
        ///   ended before the end of the RIFF payload.
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
                    throw .truncated
                }
            } catch {
                failure = error
                throw error
            }
        }
    }
}
