/// Bounds-checked little-endian reads over untrusted bytes: every read returns `nil` rather
/// than trapping when the input is short.
///
/// It borrows raw memory so that parsing an entry read into one buffer allocates nothing;
/// use it only within the scope that owns that memory.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func read(count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, bytes.count - position >= count else { return nil }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    mutating func readUInt16() -> UInt16? { readInteger(UInt16.self) }
    mutating func readUInt32() -> UInt32? { readInteger(UInt32.self) }
    mutating func readUInt64() -> UInt64? { readInteger(UInt64.self) }

    private mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        // Safe: `read` returned exactly MemoryLayout<T>.size in-bounds bytes.
        guard let field = read(count: MemoryLayout<T>.size) else { return nil }
        return T(littleEndian: field.loadUnaligned(as: T.self))
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size {
            append(UInt8(truncatingIfNeeded: value >> (index * 8)))
        }
    }
}
