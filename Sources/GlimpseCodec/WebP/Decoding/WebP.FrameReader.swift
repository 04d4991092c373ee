extension WebP {
    /// The engine shared by ``WebP/Decoder`` and ``WebP/FrameIterator``: follows the
    /// chunks of a WebP file as they arrive and turns them into frames.
    ///
    /// Which files it accepts follows libwebp, which has two readers: a still image is
    /// read like `WebPDecode` (`src/dec/webp_dec.c`: the chunks up to the image are
    /// checked, those after it only for the RIFF size), an animation like the demuxer
    /// behind `WebPAnimDecoder` (`src/demux/demux.c`: every chunk is checked, and an
    /// `ANMF` chunk's frame is the `ALPH`/`VP8 `/`VP8L` chunks that follow its 16-byte
    /// header, as the demuxer reads them).
    struct FrameReader: Sendable {
        /// What ``read(_:_:)`` stopped at.
        enum Step {
            case needMoreData
            /// The still image, or the next composed frame of an animation.
            case frame(ImageFrame)
            /// The RIFF payload has been read.
            case end
        }

        enum Phase: Sendable {
            /// Before the first chunk.
            case first
            /// An extended still image, before its image chunk (`ParseOptionalChunks`).
            case stillChunks
            /// After the image chunk of a still image: only metadata is looked for.
            case trailing
            /// The chunks of an animation (`ParseVP8XChunks`).
            case animation
            case done
        }

        /// The frame whose chunks follow the last `ANMF` header.
        struct PendingFrame: Sendable {
            var header: FrameHeader
            /// End of the `ANMF` chunk (padded): the frame's chunks must end by then.
            var end: Int
            var alpha: [UInt8]?
            var hasImage = false
        }

        /// Largest metadata chunk (`ICCP`, `EXIF`) buffered; larger ones are skipped.
        static let maxMetadataChunk = 16 << 20

        let options: DecodingOptions
        var limits: DecodingLimits { options.limits }
        var lexer = ChunkLexer()
        var phase = Phase.first
        private(set) var extended: ExtendedHeader?
        var animation: AnimationHeader?
        private(set) var metadata = ImageMetadata()
        /// The still image's bitstream header, once read.
        var still: BitstreamInfo?
        /// The still image's `ALPH` payload (the last one before the image wins, as in libwebp).
        var stillAlpha: [UInt8]?
        var pending: PendingFrame?
        var compositor: Compositor?
        /// A lossy still image being decoded as its chunk arrives.
        var lossyStream: LossyStream?
        /// Frames produced so far.
        private(set) var frameCount = 0
        mutating func incrementFrames() { frameCount &+= 1 }
        /// Bytes the caller holds on to (the frames it kept), counted against the budget.
        var retainedBytes = 0
        /// The animation's frames, counted from chunk headers once the rest of the file was
        /// in one input (``FrameCounter``); `nil` until then or when the count failed.
        private(set) var countedFrames: Int?
        private var triedCounting = false

        /// At an `ANMF` chunk header: when the input holds the rest of the RIFF payload,
        /// counts the frames from here on without decoding them.
        private mutating func countFrames(at chunk: ChunkLexer.Chunk, _ input: UnsafeRawBufferPointer, _ offset: Int) {
            guard case .animation = phase, !triedCounting, lexer.position == chunk.payloadStart,
                  lexer.riffEnd &- lexer.position >= RIFF.anmfHeaderSize,
                  input.count &- offset >= lexer.riffEnd &- lexer.position,
                  RIFF.paddedSize(chunk.size) >= RIFF.anmfHeaderSize else { return }
            triedCounting = true
            // Safe: offset + (riffEnd - position) <= input.count (checked above).
            let rest = UnsafeRawBufferPointer(rebasing: input[offset..<(offset &+ lexer.riffEnd &- lexer.position)])
            // Frames decoded so far, and the open one if its image has been seen (it was counted).
            let after = FrameCounter.count(following: UnsafeRawBufferPointer(rebasing: rest[RIFF.anmfHeaderSize...]),
                                           openFrameEnd: chunk.paddedEnd &- chunk.payloadStart &- RIFF.anmfHeaderSize,
                                           hasAnimationHeader: animation != nil)
            countedFrames = after.map { frameCount &+ $0 }
        }

        init(options: DecodingOptions) {
            self.options = options
        }

        var isAnimated: Bool { extended?.flags.contains(.animation) ?? false }
        var isAtEnd: Bool { if case .done = phase { true } else { false } }

        /// Canvas size, once known (the `VP8X` canvas, or a simple file's bitstream size).
        var canvasSize: (width: Int, height: Int)? {
            if let extended { return (extended.canvasWidth, extended.canvasHeight) }
            if let still { return (still.width, still.height) }
            return nil
        }

        /// Whether the file declares or carries alpha.
        var hasAlpha: Bool {
            (extended?.flags.contains(.alpha) ?? false) || (still?.hasAlpha ?? false) || stillAlpha != nil
        }

        /// Reads from `input[offset...]` until a frame is complete, the end is reached or the input is used up.
        mutating func read(_ input: UnsafeRawBufferPointer, _ offset: inout Int) throws(ImageDecodingError) -> Step {
            if isAtEnd { return .end }
            while let event = try lexer.next(input, &offset) {
                switch event {
                case .riffHeader:
                    break
                case .chunk(let chunk):
                    if chunk.tag == .anmf { countFrames(at: chunk, input, offset) }
                    try begin(chunk)
                case .peek(let chunk, let body):
                    try lexer.withBody(body, in: input) { (raw) throws(ImageDecodingError) in try peekHeader(chunk, raw) }.map { setStill($0) }
                    try advanceStill(chunk, body, input)
                case .progress(let chunk, let body):
                    try advanceStill(chunk, body, input)
                case .body(let chunk, let body):
                    if let frame = try end(chunk, body, input) { return .frame(frame) }
                case .end(let leftover):
                    try finishChunks(leftover: leftover)
                    return .end
                }
            }
            return .needMoreData
        }

        /// Chooses what to do with a chunk from its header.
        private mutating func begin(_ chunk: ChunkLexer.Chunk) throws(ImageDecodingError) {
            switch phase {
            case .first:
                switch chunk.tag {
                case .vp8x:
                    guard chunk.size == RIFF.vp8xSize else { throw WebP.malformed(.extendedHeaderSize(chunk.size)) }
                    guard chunk.paddedEnd <= lexer.riffEnd else { throw WebP.malformed(.chunkPastRIFFEnd(tag: chunk.tag.description)) }
                    lexer.choose(.buffer(peek: 0))
                case .vp8, .vp8l:
                    // A simple file: webp_dec.c only wants the unpadded chunk inside the RIFF size.
                    guard chunk.end <= lexer.riffEnd else { throw WebP.malformed(.chunkPastRIFFEnd(tag: chunk.tag.description)) }
                    try beginImage(chunk)
                default:
                    throw WebP.malformed(.firstChunk(tag: chunk.tag.description))
                }
            case .stillChunks:
                // ParseOptionalChunks counts every chunk, padded, against the RIFF size.
                guard chunk.paddedEnd <= lexer.riffEnd else { throw WebP.malformed(.chunkPastRIFFEnd(tag: chunk.tag.description)) }
                switch chunk.tag {
                case .vp8, .vp8l: try beginImage(chunk)
                case .alph: try bufferChunk(chunk)
                case .iccp, .exif: chooseMetadata(chunk)
                default: lexer.choose(.skip)
                }
            case .trailing:
                // libwebp reads nothing after the image; metadata is taken where it is well formed.
                if chunk.end <= lexer.riffEnd { chooseMetadata(chunk) } else { lexer.choose(.skip) }
            case .animation:
                try beginAnimationChunk(chunk)
            case .done:
                lexer.choose(.skip)
            }
        }

        /// `ICCP` and `EXIF` are read when the `VP8X` flags announce them (as the demuxer does)
        /// and they fit the budget; other chunks are skipped.
        mutating func chooseMetadata(_ chunk: ChunkLexer.Chunk) {
            let flags = extended?.flags ?? []
            let wanted = (chunk.tag == .iccp && flags.contains(.iccProfile) && metadata.iccProfile == nil)
                || (chunk.tag == .exif && flags.contains(.exif))
            let fits = chunk.size <= Self.maxMetadataChunk
                && (try? limits.checkBytes(chunk.size, alreadyUsed: retainedBytes)) != nil
            lexer.choose(wanted && fits ? .buffer(peek: 0) : .skip)
        }

        /// Buffers a chunk whose payload is needed whole, after checking it fits the budget;
        /// `progressive` has each further piece of it reported as it arrives.
        mutating func bufferChunk(_ chunk: ChunkLexer.Chunk, peek: Int = 0, progressive: Bool = false) throws(ImageDecodingError) {
            try limits.checkBytes(chunk.size, alreadyUsed: retainedBytes)
            lexer.choose(progressive ? .stream(peek: peek) : .buffer(peek: peek))
        }

        private mutating func beginImage(_ chunk: ChunkLexer.Chunk) throws(ImageDecodingError) {
            if case .first = phase { phase = .stillChunks }
            // A lossy still is decoded as it arrives, for its partial rows.
            try bufferChunk(chunk, peek: BitstreamInfo.headerSize(lossless: chunk.tag == .vp8l), progressive: chunk.tag == .vp8)
        }

        /// The first bytes of a still image's bitstream: its size is known before it is all here.
        private func peekHeader(_ chunk: ChunkLexer.Chunk, _ prefix: UnsafeRawBufferPointer) throws(ImageDecodingError) -> BitstreamInfo? {
            guard case .stillChunks = phase, still == nil else { return nil }
            return try checkedStillHeader(chunk, prefix)
        }

        mutating func setStill(_ info: BitstreamInfo) { still = info }

        /// A whole payload.
        private mutating func end(_ chunk: ChunkLexer.Chunk, _ body: ChunkLexer.Body,
                                  _ input: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageFrame? {
            switch (phase, chunk.tag) {
            case (.first, .vp8x):
                let header = try lexer.withBody(body, in: input) { (raw) throws(ImageDecodingError) in try ExtendedHeader(parsing: raw) }
                try limits.checkDimensions(width: header.canvasWidth, height: header.canvasHeight)
                extended = header
                if header.flags.contains(.animation) {
                    // The demuxer refuses flags outside the defined ones in an animation.
                    guard header.flags.isSubset(of: .defined) else { throw WebP.malformed(.reservedFlags(header.flags.rawValue)) }
                    phase = .animation
                } else {
                    phase = .stillChunks
                }
                return nil
            case (.stillChunks, .vp8), (.stillChunks, .vp8l):
                let frame = try withPayload(body, input) { (reader, raw) throws(ImageDecodingError) in
                    try reader.lossyStream == nil ? reader.decodeStill(chunk, raw) : reader.finishStill(chunk, raw)
                }
                phase = .trailing
                frameCount = 1
                return frame
            case (.stillChunks, .alph):
                stillAlpha = takeBody(body, input)
                return nil
            case (_, .iccp), (_, .exif):
                let bytes = takeBody(body, input)
                if chunk.tag == .iccp {
                    if metadata.iccProfile == nil, !bytes.isEmpty { metadata.iccProfile = bytes }
                } else if let orientation = Self.orientation(exif: bytes) {
                    metadata.orientation = orientation
                }
                return nil
            case (.animation, _):
                return try endAnimationChunk(chunk, body, input)
            default:
                return nil
            }
        }

        /// Calls `work` with a payload handed out by the lexer; a staged one is taken from the
        /// lexer first, so that `work` may change the reader.
        mutating func withPayload<R>(_ body: ChunkLexer.Body, _ input: UnsafeRawBufferPointer,
                                     _ work: (inout FrameReader, UnsafeRawBufferPointer) throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
            switch body {
            case .input(let range):
                return try work(&self, UnsafeRawBufferPointer(rebasing: input[range]))
            case .staged:
                let owned = lexer.takeStaged()
                return try owned.withDecodingBytes { (raw) throws(ImageDecodingError) in try work(&self, raw) }
            }
        }

        /// A payload as an array of its own (taking the lexer's stage when it is there).
        mutating func takeBody(_ body: ChunkLexer.Body, _ input: UnsafeRawBufferPointer) -> [UInt8] {
            switch body {
            case .input(let range): Array(UnsafeRawBufferPointer(rebasing: input[range]))
            case .staged: lexer.takeStaged()
            }
        }

        /// The RIFF payload has been read.
        private mutating func finishChunks(leftover: Int) throws(ImageDecodingError) {
            switch phase {
            case .first, .stillChunks:
                throw WebP.malformed(.missingImage)
            case .animation:
                try closeFrame()
                // The demuxer wants a whole chunk header wherever the RIFF payload goes on.
                guard leftover == 0 else { throw WebP.malformed(.chunkHeaderCut) }
                guard frameCount > 0 else { throw WebP.malformed(.noFrames) }
            case .trailing, .done:
                break
            }
            phase = .done
        }

        /// EXIF orientation from an `EXIF` payload: the TIFF structure, or (as some writers
        /// store it) the same after JPEG's `Exif\0\0` prefix.
        static func orientation(exif: [UInt8]) -> Orientation? {
            let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
            if exif.starts(with: prefix) { return PNG.Ancillary.orientation(Array(exif.dropFirst(prefix.count))) }
            return PNG.Ancillary.orientation(exif)
        }
    }
}
