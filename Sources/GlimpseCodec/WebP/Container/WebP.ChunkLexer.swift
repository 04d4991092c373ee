extension WebP {
    /// Splits a WebP file into its RIFF header and chunks (RFC 9649 §2), from input
    /// arriving in pieces of any size.
    ///
    /// The lexer reads chunk headers and hands each to its caller, which chooses
    /// what to do with the payload (``Action``): skip it, have it buffered whole,
    /// or read only a fixed header and go on with the chunks nested after it (what
    /// libwebp's demuxer does with `ANMF`). A payload that lies whole in the
    /// current input is handed out in place; one split across inputs is staged.
    /// Nothing past the RIFF size is read.
    struct ChunkLexer: Sendable {
        /// A chunk header as read.
        struct Chunk: Sendable, Hashable {
            var tag: FourCC
            /// Payload size as stored (without the padding byte).
            var size: Int
            /// Offset of the chunk header in the file.
            var start: Int
            var payloadStart: Int { start &+ RIFF.chunkHeaderSize }
            var end: Int { payloadStart &+ size }
            var paddedEnd: Int { payloadStart &+ RIFF.paddedSize(size) }
        }

        /// Where a payload handed out lies.
        enum Body: Sendable {
            /// In the input passed to ``next(_:_:)``, at these indices.
            case input(Range<Int>)
            /// In the lexer's staging buffer (``staged``).
            case staged
        }

        enum Event: Sendable {
            /// The 12-byte file header, checked for `RIFF`/`WEBP`; the size is stored.
            case riffHeader(size: UInt32)
            /// A chunk header; call ``choose(_:)`` before the next ``next(_:_:)``.
            case chunk(Chunk)
            /// The first bytes (`peek` of ``Action/buffer(peek:)``) of a payload being staged.
            case peek(Chunk, Body)
            /// More bytes of a payload staged with ``Action/stream(peek:)``, past its `peek`
            /// bytes: the staging buffer holds its first bytes (not all of them).
            case progress(Chunk, Body)
            /// A whole payload (or the fixed header of ``Action/header(_:)``).
            case body(Chunk, Body)
            /// The RIFF payload is used up; `leftover` bytes (1…7) remained, too few for a chunk header.
            case end(leftover: Int)
        }

        enum Action: Sendable {
            case skip
            /// Buffer the payload; report its first `peek` bytes early when it is split.
            case buffer(peek: Int)
            /// As `buffer`, and report each further piece of a split payload (``Event/progress(_:_:)``)
            /// for a decoder that works on a payload as it arrives.
            case stream(peek: Int)
            /// Read the first `count` bytes of the payload (the padding byte counts, as libwebp
            /// reads it), then skip the rest.
            case prefix(Int)
            /// Read the first `count` bytes of the payload (padding included, as for `prefix`),
            /// then lex what follows as chunks.
            case header(Int)
        }

        private enum State: Sendable {
            case riffHeader
            case chunkHeader
            case awaitingChoice(Chunk)
            case buffering(Chunk, count: Int, peek: Int, nested: Bool, progressive: Bool = false)
            case skipping(Int)
            case ended
        }

        private var state: State = .riffHeader
        /// Offset in the file of the next byte to read.
        private(set) var position = 0
        /// Offset in the file where the RIFF payload ends (`8 + RIFF size`), once known.
        private(set) var riffEnd = Int.max
        /// Bytes of a header or payload split across inputs.
        private(set) var staged: [UInt8] = []
        /// `staged` holds a payload handed out by the last event.
        private var stagedIsBody = false
        /// Largest up-front reservation for a staged payload; bigger ones grow as they arrive.
        private static let maxReservation = 16 << 20

        var isAtEnd: Bool { if case .ended = state { true } else { false } }

        /// Whether the lexer is between chunks (no header or payload partly read).
        var isBetweenChunks: Bool {
            switch state {
            case .chunkHeader: staged.isEmpty
            case .ended: true
            default: false
            }
        }

        /// Gives the staging buffer to the caller (after a ``Event/body(_:_:)`` from it).
        mutating func takeStaged() -> [UInt8] {
            defer { staged = []; stagedIsBody = false }
            return staged
        }

        mutating func choose(_ action: Action) {
            guard case .awaitingChoice(let chunk) = state else { return }
            staged.removeAll(keepingCapacity: true)
            switch action {
            case .skip:
                state = .skipping(max(0, min(chunk.paddedEnd, riffEnd) &- position))
            case .buffer(let peek):
                state = .buffering(chunk, count: chunk.size, peek: min(peek, chunk.size), nested: false)
            case .stream(let peek):
                state = .buffering(chunk, count: chunk.size, peek: min(peek, chunk.size), nested: false, progressive: true)
            case .prefix(let count):
                state = .buffering(chunk, count: min(count, RIFF.paddedSize(chunk.size)), peek: 0, nested: false)
            case .header(let count):
                state = .buffering(chunk, count: min(count, RIFF.paddedSize(chunk.size)), peek: 0, nested: true)
            }
        }

        /// The next event from `input[offset...]`, or `nil` when the input is used up.
        mutating func next(_ input: UnsafeRawBufferPointer, _ offset: inout Int) throws(ImageDecodingError) -> Event? {
            if stagedIsBody {
                // The caller has used (or taken) the payload handed out last time.
                staged = []
                stagedIsBody = false
            }
            while true {
                switch state {
                case .riffHeader:
                    guard let header = stage(RIFF.headerSize, input, &offset) else { return nil }
                    let tagsMatch = header.withUnsafeBytes { raw in
                        raw.webpLittleEndian(0, 4) == Int(FourCC.riff.value) && raw.webpLittleEndian(8, 4) == Int(FourCC.webp.value)
                    }
                    guard tagsMatch else { throw WebP.malformed(.signature) }
                    let size = header.withUnsafeBytes { UInt32(truncatingIfNeeded: $0.webpLittleEndian(4, 4)) }
                    // Every reader (webp_dec.c, the demuxer behind WebPGetFeatures) wants room for one
                    // chunk header after `WEBP`.
                    guard size >= 12, size <= RIFF.maxChunkPayload else { throw WebP.malformed(.riffSize(size)) }
                    riffEnd = RIFF.chunkHeaderSize &+ Int(size)
                    state = .chunkHeader
                    return .riffHeader(size: size)
                case .chunkHeader:
                    let start = position &- staged.count
                    let left = riffEnd &- start
                    if left < RIFF.chunkHeaderSize {
                        state = .ended
                        return .end(leftover: max(0, left))
                    }
                    guard let header = stage(RIFF.chunkHeaderSize, input, &offset) else { return nil }
                    let (tag, size) = header.withUnsafeBytes { raw in
                        (FourCC(UInt32(truncatingIfNeeded: raw.webpLittleEndian(0, 4))), UInt32(truncatingIfNeeded: raw.webpLittleEndian(4, 4)))
                    }
                    guard size <= RIFF.maxChunkPayload else {
                        throw WebP.malformed(.chunkSize(tag: tag.description, size: size))
                    }
                    let chunk = Chunk(tag: tag, size: Int(size), start: start)
                    state = .awaitingChoice(chunk)
                    return .chunk(chunk)
                case .awaitingChoice:
                    // The caller did not choose: skipping keeps the lexer going.
                    choose(.skip)
                case .skipping(let remaining):
                    if remaining == 0 {
                        state = .chunkHeader
                        continue
                    }
                    let available = input.count &- offset
                    guard available > 0 else { return nil }
                    let step = min(available, remaining)
                    offset &+= step
                    position &+= step
                    state = .skipping(remaining &- step)
                case .buffering(let chunk, let count, let peek, let nested, let progressive):
                    let available = input.count &- offset
                    if staged.isEmpty && available >= count {
                        // The whole payload is in this input: hand it out in place.
                        let range = offset..<(offset &+ count)
                        offset &+= count
                        position &+= count
                        finishBody(chunk, nested: nested)
                        return .body(chunk, .input(range))
                    }
                    guard available > 0 else { return nil }
                    if staged.isEmpty { staged.reserveCapacity(min(count, Self.maxReservation)) }
                    let before = staged.count
                    let step = min(available, count &- before)
                    staged.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset &+ step)]))
                    offset &+= step
                    position &+= step
                    if staged.count == count {
                        finishBody(chunk, nested: nested)
                        stagedIsBody = true
                        return .body(chunk, .staged)
                    }
                    if peek > 0, before < peek, staged.count >= peek {
                        return .peek(chunk, .staged)
                    }
                    if progressive, staged.count >= peek {
                        return .progress(chunk, .staged)
                    }
                    return nil
                case .ended:
                    return nil
                }
            }
        }

        /// After a payload: skip the rest of the chunk (its padding byte where the RIFF has
        /// it), or, after the header of a chunk with nested chunks, carry on with those.
        private mutating func finishBody(_ chunk: Chunk, nested: Bool) {
            state = nested ? .chunkHeader : .skipping(max(0, min(chunk.paddedEnd, riffEnd) &- position))
        }

        /// Stages bytes until `count` are held, then returns them and clears the stage.
        private mutating func stage(_ count: Int, _ input: UnsafeRawBufferPointer, _ offset: inout Int) -> [UInt8]? {
            let step = min(count &- staged.count, input.count &- offset)
            if step > 0 {
                staged.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset &+ step)]))
                offset &+= step
                position &+= step
            }
            guard staged.count == count else { return nil }
            return takeStaged()
        }

        /// Calls `body` with a payload handed out by the last event.
        func withBody<R>(_ body: Body, in input: UnsafeRawBufferPointer,
                         _ work: (UnsafeRawBufferPointer) throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
            switch body {
            case .input(let range): return try work(UnsafeRawBufferPointer(rebasing: input[range]))
            case .staged: return try staged.withDecodingBytes(work)
            }
        }
    }
}
