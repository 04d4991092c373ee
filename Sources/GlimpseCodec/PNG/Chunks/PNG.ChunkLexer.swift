import CZlib

extension PNG {
    /// Splits a byte stream into chunks (PNG §5.3: length, type, data, CRC-32),
    /// whatever the sizes of the pieces it is fed.
    ///
    /// The decoder decides per chunk, from its type and length, whether the
    /// data is buffered (small chunks it parses), streamed (image data, passed
    /// on piece by piece without a copy) or skipped (chunks it does not use).
    /// Every chunk's CRC is checked, as libpng does, skipped ones included: a
    /// bad CRC on a critical chunk is an error; on an ancillary chunk it is
    /// reported so that the decoder drops the chunk (lenient) or fails (strict).
    struct ChunkLexer: Sendable {
        enum Disposition: Sendable { case buffer, stream, skip }

        enum Event {
            /// A chunk header was read; call ``choose(_:)`` before the next call.
            case begin(ChunkType, length: Int)
            /// Part of a streamed chunk's data, valid until the next call.
            case data(UnsafeRawBufferPointer)
            /// The chunk is complete; `body` holds buffered data.
            case end(ChunkType, body: [UInt8], crcValid: Bool)
        }

        private enum Phase: Sendable {
            case signature, header, undecided, body, crc
        }

        private var phase = Phase.signature
        private var small: [UInt8] = []
        private var body: [UInt8] = []
        private var type = ChunkType(0)
        private var remaining = 0
        private var disposition = Disposition.skip
        private var crc: UInt = 0

        /// Reads from `input` (advancing it) up to the next event; `nil` when
        /// `input` is exhausted.
        mutating func next(_ input: inout UnsafeRawBufferPointer) throws(ImageDecodingError) -> Event? {
            while true {
                switch phase {
                case .signature:
                    while small.count < 8 {
                        guard let byte = input.first else { return nil }
                        guard byte == PNG.signature[small.count] else { throw .malformed(.png(.signature)) }
                        small.append(byte)
                        input = UnsafeRawBufferPointer(rebasing: input.dropFirst())
                    }
                    small.removeAll(keepingCapacity: true)
                    phase = .header
                case .header:
                    guard fill(8, from: &input) else { return nil }
                    let length = Int(UInt32(small[0]) << 24 | UInt32(small[1]) << 16 | UInt32(small[2]) << 8 | UInt32(small[3]))
                    type = ChunkType(UInt32(small[4]) << 24 | UInt32(small[5]) << 16 | UInt32(small[6]) << 8 | UInt32(small[7]))
                    small.removeAll(keepingCapacity: true)
                    // PNG §5.3: the length is at most 2^31 - 1.
                    guard length <= Int(Int32.max) else { throw .malformed(.png(.chunkLength(Int(length)))) }
                    guard type.isValid else { throw .malformed(.png(.chunkType)) }
                    remaining = length
                    let typeBytes = type.bytes
                    crc = typeBytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, 4) }
                    phase = .undecided
                    return .begin(type, length: length)
                case .undecided:
                    // The caller did not choose: skipping is the safe default.
                    disposition = .skip
                    phase = .body
                case .body:
                    if remaining == 0 {
                        phase = .crc
                        continue
                    }
                    guard !input.isEmpty else { return nil }
                    let count = min(remaining, input.count)
                    let piece = UnsafeRawBufferPointer(rebasing: input[..<count])
                    input = UnsafeRawBufferPointer(rebasing: input[count...])
                    remaining &-= count
                    crc = CZlib.crc32(crc, piece.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(count))
                    switch disposition {
                    case .skip: continue
                    case .buffer: body.append(contentsOf: piece)
                    case .stream: return .data(piece)
                    }
                case .crc:
                    guard fill(4, from: &input) else { return nil }
                    let stored = UInt(small[0]) << 24 | UInt(small[1]) << 16 | UInt(small[2]) << 8 | UInt(small[3])
                    small.removeAll(keepingCapacity: true)
                    let valid = stored == crc
                    if !valid && type.isCritical { throw .checksumMismatch }
                    phase = .header
                    let data = body
                    body = []
                    return .end(type, body: data, crcValid: valid)
                }
            }
        }

        /// Tells the lexer what to do with the data of the chunk just begun.
        mutating func choose(_ disposition: Disposition) {
            guard phase == .undecided else { return }
            self.disposition = disposition
            if disposition == .buffer { body.reserveCapacity(remaining) }
            phase = .body
        }

        /// Moves bytes into `small` until it holds `count`; whether it does.
        private mutating func fill(_ count: Int, from input: inout UnsafeRawBufferPointer) -> Bool {
            let take = min(count &- small.count, input.count)
            if take > 0 {
                small.append(contentsOf: input[..<take])
                input = UnsafeRawBufferPointer(rebasing: input[take...])
            }
            return small.count == count
        }
    }
}
