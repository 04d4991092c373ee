/// Bounds-checked little-endian reads over untrusted bytes: every read returns `nil` rather
/// than trapping when the input is short.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    mutating func read(count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.endIndex - position >= count else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func readUInt16() -> UInt16? { readInteger(UInt16.self) }
    mutating func readUInt32() -> UInt32? { readInteger(UInt32.self) }
    mutating func readUInt64() -> UInt64? { readInteger(UInt64.self) }

    private mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        guard let slice = read(count: MemoryLayout<T>.size) else { return nil }
        var value: T = 0
        for (shift, byte) in slice.enumerated() {
            value |= T(byte) << (shift * 8)
        }
        return value
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size {
            append(UInt8(truncatingIfNeeded: value >> (index * 8)))
        }
    }
}
