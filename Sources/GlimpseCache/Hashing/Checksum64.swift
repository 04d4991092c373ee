/// A fast, non-cryptographic 64-bit checksum over entry files.
///
/// It only has to notice torn, truncated, zeroed, bit-flipped or foreign bytes, not resist an
/// attacker, so it is built for throughput: the disk cache checksums every byte it reads, and
/// this runs at a fraction of the cost of copying the bytes out of the page cache.
///
/// - Sixteen 64-bit lanes (four `SIMD4<UInt64>` accumulators over 128-byte blocks) each keep
///   a plain sum of their words. Any single changed word changes its lane's sum; zeroing or
///   replacing a sector changes the sums unless the change cancels exactly modulo 2^64 in
///   every affected lane.
/// - At the end of every 4 KiB page the running sums are added into position-weighted sums
///   (Fletcher's construction, RFC 1146 appendix I, applied per page rather than per word),
///   so pages written out of order or shifted are noticed too. Word order within one page
///   and one lane is not checked: storage tears at sector or page granularity, and a torn
///   page holds zeros or stale bytes, not a permutation of the new ones.
/// - An avalanche over the lanes, the length and the tail bytes ends it.
///
/// Four independent accumulators keep both vector adders busy; the weighted sums cost four
/// adds per page. Entry format version 2 uses this checksum (version 1 added the running sums
/// into the weighted ones every 32 bytes, twice the vector work per byte).
public enum Checksum64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let pageSize = 4096
    private static let blockSize = 128

    /// The checksum of `bytes`, continuing from `seed` (pass a previous result to chain).
    public static func compute(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        let start = SIMD4<UInt64>(seed, seed ^ prime1, seed ^ prime2, seed ^ prime3)
        var sum0 = start, sum1 = start &* prime1, sum2 = start &* prime2, sum3 = start &* prime3
        var weighted0 = SIMD4<UInt64>(), weighted1 = weighted0, weighted2 = weighted0, weighted3 = weighted0
        var offset = 0
        // Safe: every load reads 32 bytes at an offset with offset + 32 <= count (the loop
        // conditions); a nil base address only comes with count == 0, when no load runs.
        // Offsets never exceed count, so the wrapping arithmetic cannot wrap.
        if let base = bytes.baseAddress {
            @inline(__always) func load(_ at: Int) -> SIMD4<UInt64> {
                base.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt64>.self)
            }
            while count &- offset >= blockSize {
                let pageEnd = min(offset &+ pageSize, count &- (count &- offset) % blockSize)
                while offset < pageEnd {
                    sum0 &+= load(offset)
                    sum1 &+= load(offset &+ 32)
                    sum2 &+= load(offset &+ 64)
                    sum3 &+= load(offset &+ 96)
                    offset &+= blockSize
                }
                weighted0 &+= sum0
                weighted1 &+= sum1
                weighted2 &+= sum2
                weighted3 &+= sum3
            }
            while count &- offset >= 32 {
                sum0 &+= load(offset)
                weighted0 &+= sum0
                offset &+= 32
            }
        }
        var hash = UInt64(truncatingIfNeeded: count) &* prime3
        hash = mix(mix(mix(mix(hash, sum0), sum1), sum2), sum3)
        hash = mix(mix(mix(mix(hash, weighted0), weighted1), weighted2), weighted3)
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

    @inline(__always)
    private static func mix(_ hash: UInt64, _ lanes: SIMD4<UInt64>) -> UInt64 {
        mix(mix(mix(mix(hash, lanes[0]), lanes[1]), lanes[2]), lanes[3])
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
