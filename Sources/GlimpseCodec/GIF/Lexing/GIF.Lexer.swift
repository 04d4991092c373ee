extension GIF {
    /// Splits a GIF byte stream into its blocks (GIF89a §15–§27), incrementally.
    ///
    /// Bytes arrive in chunks of any size. Fixed-size structures split across
    /// chunks are staged (they are at most 768 bytes, a colour table); image
    /// data is handed out without copying, as slices of the caller's buffer,
    /// whatever the sub-block boundaries. Every call to ``next(_:_:)`` that
    /// returns an event consumes at least one byte, so any finite input ends.
    struct Lexer: Sendable {
        /// What the lexer found.
        enum Event {
            case screen(LogicalScreen)
            /// RGB triples.
            case globalColorTable([UInt8])
            case graphicControl(GraphicControl)
            /// NETSCAPE2.0 / ANIMEXTS1.0 loop count (0 = forever, else repetitions).
            case loopCount(Int)
            /// An image descriptor with its local colour table (RGB triples), if any.
            case image(ImageDescriptor, localColorTable: [UInt8]?)
            case imageDataStart(minimumCodeSize: Int)
            /// LZW bytes; valid only until the next call.
            case imageData(UnsafeRawBufferPointer)
            case imageDataEnd
            /// The trailer (0x3B), or, after at least one frame, a byte that starts
            /// no known block (treated as the end of the file; see README).
            case trailer
        }

        private enum ExtensionKind {
            case graphicControl
            case application
            case loop
            case skipped
        }

        private enum State {
            case header
            case globalTable(bytes: Int)
            case blockStart
            case extensionLabel
            case extensionBlockSize(ExtensionKind, index: Int)
            case extensionBlockBody(ExtensionKind, index: Int, length: Int)
            case extensionSkip(ExtensionKind, index: Int, remaining: Int)
            case imageDescriptor
            case localTable(ImageDescriptor, bytes: Int)
            case minimumCodeSize
            case dataBlockSize
            case dataBlockBody(remaining: Int)
            case done
        }

        private var state: State = .header
        /// Bytes of a fixed-size structure that arrived split across chunks.
        private var staged: [UInt8] = []
        /// Whether an image descriptor has been seen (for the junk-after-frames rule).
        private var sawImage = false

        /// Whether the trailer (or what stands for it) has been reached.
        var isDone: Bool { if case .done = state { true } else { false } }
        /// Whether the lexer is inside an image (descriptor, colour table or data),
        /// where the end of the input loses (part of) a frame.
        var isInsideImage: Bool {
            switch state {
            case .imageDescriptor, .localTable, .minimumCodeSize, .dataBlockSize, .dataBlockBody: true
            default: false
            }
        }

        /// Returns `count` bytes from `input` (after any staged ones), or stages
        /// what there is and returns `nil`.
        private mutating func take(_ count: Int, _ input: UnsafeRawBufferPointer, _ offset: inout Int) -> [UInt8]? {
            let available = input.count &- offset
            if staged.isEmpty, available >= count {
                let bytes = [UInt8](input[offset..<(offset &+ count)])
                offset &+= count
                return bytes
            }
            let wanted = min(count &- staged.count, available)
            staged.append(contentsOf: input[offset..<(offset &+ wanted)])
            offset &+= wanted
            guard staged.count == count else { return nil }
            defer { staged.removeAll(keepingCapacity: true) }
            return staged
        }

        /// The next event from `input[offset...]`, or `nil` when `input` is used up.
        mutating func next(_ input: UnsafeRawBufferPointer, _ offset: inout Int) throws(ImageDecodingError) -> Event? {
            while offset < input.count {
                switch state {
                case .header:
                    guard let bytes = take(13, input, &offset) else { return nil }
                    let screen = try LogicalScreen.parse(bytes)
                    state = screen.globalColorTableCount.map { .globalTable(bytes: $0 &* 3) } ?? .blockStart
                    return .screen(screen)
                case .globalTable(let count):
                    guard let bytes = take(count, input, &offset) else { return nil }
                    state = .blockStart
                    return .globalColorTable(bytes)
                case .blockStart:
                    let byte = input[offset]
                    offset &+= 1
                    switch byte {
                    case 0x21: state = .extensionLabel
                    case 0x2C: state = .imageDescriptor
                    case 0x3B:
                        state = .done
                        return .trailer
                    default:
                        guard sawImage else { throw .malformed(.gif(.unknownBlock(byte))) }
                        state = .done
                        return .trailer
                    }
                case .extensionLabel:
                    let label = input[offset]
                    offset &+= 1
                    let kind: ExtensionKind = switch label {
                    case 0xF9: .graphicControl
                    case 0xFF: .application
                    default: .skipped
                    }
                    state = .extensionBlockSize(kind, index: 0)
                case .extensionBlockSize(let kind, let index):
                    let length = Int(input[offset])
                    offset &+= 1
                    if length == 0 {
                        state = .blockStart
                    } else if parses(kind, index: index) {
                        state = .extensionBlockBody(kind, index: index, length: length)
                    } else {
                        state = .extensionSkip(kind, index: index, remaining: length)
                    }
                case .extensionBlockBody(let kind, let index, let length):
                    guard let block = take(length, input, &offset) else { return nil }
                    state = .extensionBlockSize(kind, index: index &+ 1)
                    switch kind {
                    case .graphicControl:
                        return .graphicControl(GraphicControl.parse(block))
                    case .application:
                        if block.elementsEqual("NETSCAPE2.0".utf8) || block.elementsEqual("ANIMEXTS1.0".utf8) {
                            state = .extensionBlockSize(.loop, index: index &+ 1)
                        }
                    case .loop:
                        // Sub-block id 1 carries the loop count; others (id 2, buffering) are skipped.
                        if block.count >= 3, block[0] == 1 {
                            return .loopCount(Int(block[1]) | Int(block[2]) << 8)
                        }
                    case .skipped:
                        break
                    }
                case .extensionSkip(let kind, let index, let remaining):
                    let step = min(remaining, input.count &- offset)
                    offset &+= step
                    state = step == remaining
                        ? .extensionBlockSize(kind, index: index &+ 1)
                        : .extensionSkip(kind, index: index, remaining: remaining &- step)
                case .imageDescriptor:
                    guard let bytes = take(9, input, &offset) else { return nil }
                    let descriptor = ImageDescriptor.parse(bytes)
                    sawImage = true
                    if let count = descriptor.localColorTableCount {
                        state = .localTable(descriptor, bytes: count &* 3)
                    } else {
                        state = .minimumCodeSize
                        return .image(descriptor, localColorTable: nil)
                    }
                case .localTable(let descriptor, let count):
                    guard let bytes = take(count, input, &offset) else { return nil }
                    state = .minimumCodeSize
                    return .image(descriptor, localColorTable: bytes)
                case .minimumCodeSize:
                    let size = Int(input[offset])
                    offset &+= 1
                    state = .dataBlockSize
                    return .imageDataStart(minimumCodeSize: size)
                case .dataBlockSize:
                    let length = Int(input[offset])
                    offset &+= 1
                    if length == 0 {
                        state = .blockStart
                        return .imageDataEnd
                    }
                    state = .dataBlockBody(remaining: length)
                case .dataBlockBody(let remaining):
                    let step = min(remaining, input.count &- offset)
                    let data = UnsafeRawBufferPointer(rebasing: input[offset..<(offset &+ step)])
                    offset &+= step
                    state = step == remaining ? .dataBlockSize : .dataBlockBody(remaining: remaining &- step)
                    return .imageData(data)
                case .done:
                    return nil
                }
            }
            return nil
        }

        /// Whether sub-block `index` of an extension of `kind` is read rather than skipped.
        private func parses(_ kind: ExtensionKind, index: Int) -> Bool {
            switch kind {
            case .graphicControl, .application: index == 0
            case .loop: true
            case .skipped: false
            }
        }
    }
}
