import Foundation
import Glimpse
import GlimpseCache

extension ImageDataEntry {
    /// `GLR1`, then metadata length and data length (UInt32 LE), then a ``Checksum64`` (UInt64
    /// LE) chained over the key, those twelve header bytes, the metadata and the data; then
    /// the metadata record (the disk cache's, ``DiskCache/Metadata/encoded()``, stamped with
    /// the time of the write) and the data. The key in the checksum makes a value copied under
    /// another key a miss, like a torn or foreign one.
    static let magic: [UInt8] = Array("GLR1".utf8)
    static let headerLength = 20

    func redisValue() -> [UInt8] {
        var record = DiskCache.Metadata(metadata)
        record.storedDate = Date()
        let metadataBytes = record.encoded()
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerLength + metadataBytes.count + data.count)
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: metadataBytes.count))
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: data.count))
        bytes.appendLittleEndian(Self.checksum(key: key, header: bytes, metadata: metadataBytes, data: data))
        bytes += metadataBytes
        bytes += data
        return bytes
    }

    /// The entry in `bytes`, or `nil` when they are not one written for `key` (wrong magic,
    /// lengths that do not add up, a checksum that does not match, a malformed record).
    init?(redisValue bytes: [UInt8], forKey key: String) {
        guard bytes.count >= Self.headerLength, bytes.starts(with: Self.magic) else { return nil }
        let metadataCount = Int(Self.uint32(bytes, at: 4)), dataCount = Int(Self.uint32(bytes, at: 8))
        guard bytes.count - Self.headerLength == metadataCount + dataCount else { return nil }
        let metadataBytes = Array(bytes[Self.headerLength..<Self.headerLength + metadataCount])
        let data = Array(bytes[(Self.headerLength + metadataCount)...])
        var stored: UInt64 = 0
        for index in 0..<8 { stored |= UInt64(bytes[12 + index]) << (index * 8) }
        guard Self.checksum(key: key, header: Array(bytes[0..<12]), metadata: metadataBytes, data: data) == stored,
              let metadata = metadataBytes.withUnsafeBytes({ DiskCache.Metadata(decoding: $0) }) else { return nil }
        self.init(key: key, data: data, metadata: ImageDataMetadata(metadata), tier: .shared)
    }

    private static func checksum(key: String, header: [UInt8], metadata: [UInt8], data: [UInt8]) -> UInt64 {
        var sum = Array(key.utf8).withUnsafeBytes { Checksum64.compute($0) }
        for part in [header, metadata, data] {
            sum = part.withUnsafeBytes { Checksum64.compute($0, seed: sum) }
        }
        return sum
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << ($1 * 8) }
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size { append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
    }
}
