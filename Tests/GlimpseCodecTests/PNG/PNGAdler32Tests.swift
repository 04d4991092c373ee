import CZlib
@testable import GlimpseCodec
import Testing

/// The vectorised Adler-32 must equal zlib's on every length and split.
@Suite("PNG: Adler-32")
struct PNGAdler32Tests {
    /// Deterministic bytes (xorshift), so that failures reproduce.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 32)
        }
    }

    static func zlib(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: adler32_z(1, $0.baseAddress, $0.count)) }
    }

    static func ours(_ data: [UInt8], pieces: [Int]) -> UInt32 {
        var checksum = PNG.Adler32()
        data.withUnsafeBytes { raw in
            var start = 0
            for size in pieces + [raw.count] where start < raw.count {
                let end = min(raw.count, start + size)
                checksum.update(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
        return checksum.value
    }

    @Test("equals zlib's adler32 on random bytes of many lengths, whole and split")
    func matchesZlib() {
        // Around the vector, inner-block (352 bytes) and outer-block (84 480 bytes) sizes.
        let lengths = Array(0...40) + [255, 351, 352, 353, 5_551, 5_552, 5_553, 84_479, 84_480, 84_481, 84_496, 200_003]
        for (index, length) in lengths.enumerated() {
            let data = Self.bytes(length, seed: UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
            let expected = Self.zlib(data)
            #expect(Self.ours(data, pieces: []) == expected, "length \(length)")
            #expect(Self.ours(data, pieces: [1, 7, 15, 16, 17, 353, 4_096]) == expected, "length \(length), split")
        }
    }

    @Test("all-0xFF input, the largest sums, equals zlib's")
    func saturated() {
        for length in [352, 84_480, 84_480 * 3 + 17] {
            let data = [UInt8](repeating: 0xFF, count: length)
            #expect(Self.ours(data, pieces: []) == Self.zlib(data), "length \(length)")
        }
    }
}
