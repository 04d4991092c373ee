import Foundation

/// A fast, non-cryptographic 64-bit checksum over entry files.
///
/// It only has to notice torn, truncated or foreign bytes, not resist an attacker, so it
/// favours throughput: four independent multiply-rotate lanes over 8-byte words let the
/// CPU overlap the multiplications (the disk cache checksums every byte it reads).
public enum Checksum64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// The checksum of `bytes`, continuing from `seed` (pass a previous result to chain).
    public static func compute(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var lane0 = seed &+ prime1, lane1 = seed &+ prime2
        var lane2 = seed ^ prime3, lane3 = seed &- prime1
        var offset = 0
        let base = bytes.baseAddress
        // Safe: every load below reads 8 bytes at offset + k*8 with offset + 32 <= count, and
        // a nil base only comes with count == 0, when no load runs.
        if let base {
            while offset + 32 <= count {
                lane0 = round(lane0, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                lane1 = round(lane1, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                lane2 = round(lane2, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                lane3 = round(lane3, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
        }
        var hash = lane0.rotatedLeft(1) &+ lane1.rotatedLeft(7) &+ lane2.rotatedLeft(12) &+ lane3.rotatedLeft(18)
        hash ^= UInt64(truncatingIfNeeded: count) &* prime3
        if let base {
            while offset + 8 <= count {
                hash = round(hash, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
        }
        while offset < count {
            hash = (hash ^ UInt64(bytes[offset]) &* prime1).rotatedLeft(11) &* prime2
            offset += 1
        }
        return finish(hash)
    }

    /// Convenience over any contiguous byte collection.
    public static func compute<Bytes: ContiguousBytes>(_ bytes: Bytes, seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { compute($0, seed: seed) }
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        (lane &+ word &* prime2).rotatedLeft(31) &* prime1
    }

    /// Final avalanche so that every input bit affects every output bit.
    @inline(__always)
    private static func finish(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 &- count))
    }
}
