import CZlib

extension PNG {
    /// Appends chunks (PNG §5.3: length, type, data, CRC-32 of type and data).
    struct ChunkWriter: Sendable {
        private(set) var bytes: [UInt8] = PNG.signature

        mutating func write(_ type: ChunkType, _ data: [UInt8]) {
            write(type, data[...])
        }

        mutating func write(_ type: ChunkType, _ data: ArraySlice<UInt8>) {
            appendUInt32(UInt32(data.count))
            let typeBytes = type.bytes
            bytes.append(contentsOf: typeBytes)
            bytes.append(contentsOf: data)
            var crc = typeBytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, 4) }
            crc = data.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, uInt($0.count)) }
            appendUInt32(UInt32(truncatingIfNeeded: crc))
        }

        private mutating func appendUInt32(_ value: UInt32) {
            bytes.append(contentsOf: [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                                      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
        }
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }

    mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }
}
