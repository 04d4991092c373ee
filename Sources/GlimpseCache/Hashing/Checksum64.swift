/// A fast, non-cryptographic 64-bit checksum over entry files.
///
/// It only has to notice torn, truncated, bit-flipped or foreign bytes, not resist an
/// attacker, so it favours throughput: a Fletcher-style pair of running sums (RFC 1146
/// appendix I describes Fletcher's checksum) per lane over 8-byte words, four independent
/// lanes, then an avalanche over the lanes. The disk cache checksums every byte it reads, and
/// two additions per word cost far less than a multiplication per word.
///
/// Any single changed word changes its lane's plain sum, and any reordering of words changes
/// the position-weighted sum (unless the difference is a multiple of 2^64).
public enum Checksum64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    /// The checksum of `bytes`, continuing from `seed` (pass a previous result to chain).
    public static func compute(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        // Four lanes as one vector: two 128-bit additions per 32 bytes on baseline x86-64.
        var sums = SIMD4<UInt64>(seed, seed ^ prime1, seed ^ prime2, seed ^ prime3)
        var weighted = SIMD4<UInt64>(repeating: 0)
        var offset = 0
        // Safe: every load reads 32 bytes at offset with offset + 32 <= count; a nil base
        // address only comes with count == 0, when no load runs.
        if let base = bytes.baseAddress {
            while offset + 32 <= count {
                sums &+= base.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt64>.self)
                weighted &+= sums
                offset += 32
            }
        }
        var hash = UInt64(truncatingIfNeeded: count) &* prime3
        hash = mix(mix(mix(mix(hash, sums[0]), sums[1]), sums[2]), sums[3])
        hash = mix(mix(mix(mix(hash, weighted[0]), weighted[1]), weighted[2]), weighted[3])
        // The last 0...31 bytes, one at a time (at most 31 steps).
        while offset < count {
            hash = mix(hash, UInt64(bytes[offset]))
            offset += 1
        }
        return finish(hash)
    }

    /// Convenience over a byte array.
    public static func compute(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { compute($0, seed: seed) }
    }

    /// Xor, multiplication by an odd constant and rotation are bijections: a changed input
    /// always changes the result.
    @inline(__always)
    private static func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 {
        ((hash ^ value) &* prime1).rotatedLeft(29) &* prime2
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
