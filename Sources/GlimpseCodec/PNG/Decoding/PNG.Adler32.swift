extension PNG {
    /// Adler-32 (RFC 1950 §8.2), vectorised: the decoder inflates raw deflate
    /// data and checks the zlib trailer itself, because zlib's scalar Adler-32
    /// costs about a tenth of a large decode.
    struct Adler32: Sendable, Hashable {
        private(set) var value: UInt32 = 1

        private static let modulus: UInt32 = 65_521
        /// Bytes per block so that no 32-bit lane overflows (zlib's NMAX is 5552
        /// for scalar sums; lane sums of 16-byte columns allow the same).
        private static let block = 5_536

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            var a = value & 0xFFFF
            var b = value >> 16
            var offset = 0
            let count = bytes.count
            while offset < count {
                let length = min(Self.block, count &- offset)
                let vectorBytes = length & ~15
                if vectorBytes > 0 {
                    var s1 = SIMD16<UInt32>(repeating: 0)
                    var s2 = SIMD16<UInt32>(repeating: 0)
                    var i = 0
                    while i < vectorBytes {
                        // `offset + i + 16 <= count`: i < vectorBytes <= length rounded down to 16.
                        let x = SIMD16<UInt32>(truncatingIfNeeded: base.loadUnaligned(fromByteOffset: offset &+ i, as: SIMD16<UInt8>.self))
                        s2 &+= s1
                        s1 &+= x
                        i &+= 16
                    }
                    // Byte j of chunk k (K chunks, L = 16K bytes) weighs L − 16k − j in b:
                    // b += L·a + 16·Σ(s2 + s1) − Σ j·s1[j].
                    let sum1 = UInt64(s1.wrappedSum())
                    let sum2 = UInt64(s2.wrappedSum())
                    var weighted: UInt64 = 0
                    for j in 0..<16 { weighted &+= UInt64(j) &* UInt64(s1[j]) }
                    let modulus = UInt64(Self.modulus)
                    let newB = (UInt64(b) &+ UInt64(vectorBytes) &* UInt64(a) &+ 16 &* (sum2 &+ sum1) &+ modulus &* 16 &* 65_536 &- weighted) % modulus
                    a = UInt32((UInt64(a) &+ sum1) % modulus)
                    b = UInt32(newB)
                }
                var i = vectorBytes
                while i < length {
                    a &+= UInt32(base.load(fromByteOffset: offset &+ i, as: UInt8.self))
                    b &+= a
                    i &+= 1
                }
                a %= Self.modulus
                b %= Self.modulus
                offset &+= length
            }
            value = b << 16 | a
        }
    }
}
