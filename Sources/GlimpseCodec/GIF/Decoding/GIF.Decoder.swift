extension GIF {
    /// The incremental GIF decoder (GIF87a and GIF89a), following the
    /// ``ImageDecoder`` contract.
    ///
    /// Every frame is returned as the full canvas after the frame is drawn:
    /// the canvas starts transparent; disposal "restore to background" makes the
    /// frame's rectangle transparent and "restore to previous" puts back what it
    /// covered (GIF89a §23.c.iv); the transparent index leaves the canvas as it
    /// is; frames are clipped to the logical screen. Durations are the stored
    /// delays (centiseconds × 10 ms); see ``GIF/displayDelay(_:)`` for playback.
    ///
    /// ``Image/loopCount`` is the number of times the animation plays: 0 for
    /// forever (NETSCAPE2.0 loop field 0), the loop field + 1 otherwise (the field
    /// counts repetitions, as browsers read it), 1 when there is no loop extension.
    ///
    /// To walk a long animation in bounded memory, use ``GIF/FrameIterator``.
    public struct Decoder: ImageDecoder {
        public static var format: ImageFormat { .gif }

        private let options: DecodingOptions
        private var reader: FrameReader
        private var frames: [ImageFrame] = []
        private var failure: ImageDecodingError?
        private var isComplete = false

        public init(options: DecodingOptions) {
            self.options = options
            reader = FrameReader(limits: options.limits, mode: options.mode)
        }

        public var info: ImageInfo? {
            guard let screen = reader.screen else { return nil }
            let animated = reader.loopField != nil || reader.frameCount > 1
            return ImageInfo(format: .gif, width: screen.width, height: screen.height,
                             frameCount: isComplete && !options.firstFrameOnly ? frames.count : nil,
                             isAnimated: animated, bitDepth: 8, hasAlpha: true)
        }

        /// The loop count as ``Image/loopCount`` reports it.
        var loopCount: Int {
            guard let field = reader.loopField else { return 1 }
            return field == 0 ? 0 : field &+ 1
        }

        public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
            if let failure { throw failure }
            if isComplete { return .complete }
            var offset = 0
            do throws(ImageDecodingError) {
                while true {
                    switch try reader.read(bytes, &offset) {
                    case .needMoreData:
                        return .needMoreData
                    case .frame(let frame):
                        frames.append(frame)
                        reader.retainedBytes &+= frame.pixels.bytes.count
                        if options.firstFrameOnly {
                            isComplete = true
                            return .complete
                        }
                    case .end:
                        isComplete = true
                        return .complete
                    }
                }
            } catch {
                failure = error
                throw error
            }
        }

        public func partialImage() -> Image? {
            var shown = frames
            if let inProgress = reader.frameInProgress() { shown.append(inProgress) }
            guard !shown.isEmpty else { return nil }
            return Image(frames: shown, loopCount: loopCount, format: .gif, warnings: reader.warnings)
        }

        /// Returns the image.
        ///
        /// Input that stops early is an error in ``DecodingOptions/Mode/strict``
        /// mode (``ImageDecodingError/truncated``, as giflib's `DGifSlurp` fails
        /// it). In ``DecodingOptions/Mode/lenient`` mode, as browsers show it, a
        /// missing trailer only warns, and input cut inside a frame keeps the
        /// frames before it and that frame's pixels decoded so far
        /// (``partialImage()``), with a ``GIF/Defect/truncatedFrame(frame:)``
        /// warning. Input that ends before any frame is begun is `truncated` in
        /// both modes.
        public mutating func finish() throws(ImageDecodingError) -> Image {
            if let failure { throw failure }
            if !isComplete {
                let inProgress = reader.frameInProgress()
                guard options.mode == .lenient, !frames.isEmpty || inProgress != nil else {
                    failure = .truncated
                    throw .truncated
                }
                reader.noteEndOfInput()
                if let inProgress { frames.append(inProgress) }
                isComplete = true
            }
            if frames.isEmpty {
                // A screen with no image at all: browsers show the empty (transparent) canvas.
                do throws(ImageDecodingError) {
                    guard let blank = try reader.blankCanvas() else { throw .truncated }
                    frames = [blank]
                } catch {
                    failure = error
                    throw error
                }
            }
            return Image(frames: frames, loopCount: loopCount, format: .gif, warnings: reader.warnings)
        }

        /// One-shot decode of a complete file. Unlike the incremental path, it
        /// first counts the frames and checks that all of them fit the byte budget
        /// before decoding any.
        public static func decode(_ bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) throws(ImageDecodingError) -> Image {
            let array = Array(bytes)
            if !options.firstFrameOnly {
                let (frames, canvasBytes) = try array.withDecodingBytes { (raw) throws(ImageDecodingError) in try GIF.scan(raw) }
                try options.limits.checkFrames(frames)
                try options.limits.checkBytes(max(frames, 1), of: canvasBytes)
            }
            var decoder = Decoder(options: options)
            _ = try array.withDecodingBytes { (raw) throws(ImageDecodingError) in try decoder.append(raw) }
            return try decoder.finish()
        }
    }

    /// Counts the frames of a complete file without decoding pixels, and returns
    /// them with the canvas size in bytes. Stops quietly at truncation; the decoder
    /// reports it.
    static func scan(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> (frames: Int, canvasBytes: Int) {
        var lexer = Lexer()
        var offset = 0
        var frames = 0
        var canvasBytes = 0
        while let event = try lexer.next(bytes, &offset) {
            switch event {
            case .screen(let screen): canvasBytes = screen.width &* screen.height &* 4
            case .image: frames &+= 1
            case .trailer: return (frames, canvasBytes)
            default: break
            }
        }
        return (frames, canvasBytes)
    }
}
