extension PNG {
    /// Adler-32 (RFC 1950 §8.2), vectorised: the decoder inflates raw deflate
    /// data and checks the zlib trailer itself, because zlib's scalar Adler-32
    /// costs about a tenth of a large decode.
    struct Adler32: Sendable, Hashable {
        private(set) var value: UInt32 = 1

        private static let modulus: UInt64 = 65_521
        /// 16-byte vectors summed in 16-bit lanes before they are widened: the
        /// running sum of sums stays below 255 · k(k − 1)/2 = 58 905 < 2¹⁶ for k = 22.
        private static let innerVectors: Int = 22
        /// Vectors summed in 32-bit lanes before the modulo: 255 · K(K − 1)/2 < 2³²
        /// for K = 22 · 240 = 5 280.
        private static let outerVectors: Int = 5_280

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            var a = UInt64(value & 0xFFFF)
            var b = UInt64(value >> 16)
            let count = bytes.count
            var offset = 0
            // Lane j of 16 weighs 16 − j in the sum of sums of its own vector.
            let weights: SIMD16<UInt32> = [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
            while count &- offset >= 16 {
                let available: Int = (count &- offset) &>> 4
                let vectors: Int = min(available, Self.outerVectors)
                // Per lane j: s1 = Σ x_v[j], s2 = Σ_v Σ_{u<v} x_u[j].
                var s1 = SIMD16<UInt32>(repeating: 0)
                var s2 = SIMD16<UInt32>(repeating: 0)
                var v = 0
                while v < vectors {
                    let k = min(Self.innerVectors, vectors &- v)
                    var t1 = SIMD16<UInt16>(repeating: 0)
                    var t2 = SIMD16<UInt16>(repeating: 0)
                    var i = 0
                    while i < k {
                        // offset + 16(v + i + 1) ≤ offset + 16 · vectors ≤ count.
                        let x = base.loadUnaligned(fromByteOffset: offset &+ (v &+ i) &<< 4, as: SIMD16<UInt8>.self)
                        t2 &+= t1
                        t1 &+= SIMD16<UInt16>(truncatingIfNeeded: x)
                        i &+= 1
                    }
                    s2 &+= s1 &* UInt32(truncatingIfNeeded: k) &+ SIMD16<UInt32>(truncatingIfNeeded: t2)
                    s1 &+= SIMD16<UInt32>(truncatingIfNeeded: t1)
                    v &+= k
                }
                // Byte j of vector v (of K, L = 16K bytes) weighs L − 16v − j in b:
                // b += L·a + 16·Σ s2 + Σ (16 − j)·s1[j].
                let length = UInt64(vectors &<< 4)
                // Each s2 lane fits 32 bits, their sum needs 64.
                let sum2 = SIMD16<UInt64>(truncatingIfNeeded: s2).wrappedSum()
                let weighted = UInt64((s1 &* weights).wrappedSum())
                b = (b &+ length &* a &+ 16 &* sum2 &+ weighted) % Self.modulus
                a = (a &+ UInt64(s1.wrappedSum())) % Self.modulus
                offset &+= vectors &<< 4
            }
            while offset < count {
                a &+= UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
                b &+= a
                offset &+= 1
            }
            value = UInt32(truncatingIfNeeded: (b % Self.modulus) << 16 | (a % Self.modulus))
        }
    }
}
