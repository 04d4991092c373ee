extension AVIF.InverseTransform {
    /// §7.13.2.4, the inverse ADST input array permutation for `1 << n` entries (3 ≤ n ≤ 4).
    mutating func inverseADSTInputPermutation(n: Int) {
        let n0 = 1 << n
        for i in 0..<n0 { copyT[i] = T[i] }
        for i in 0..<n0 {
            let idx = (i & 1) != 0 ? (i - 1) : (n0 - i - 1)
            T[i] = copyT[idx]
        }
    }

    /// §7.13.2.5, the inverse ADST output array permutation for `1 << n` entries (3 ≤ n ≤ 4).
    mutating func inverseADSTOutputPermutation(n: Int) {
        let n0 = 1 << n
        for i in 0..<n0 { copyT[i] = T[i] }
        for i in 0..<n0 {
            let a = (i >> 3) & 1
            let b = ((i >> 2) & 1) ^ ((i >> 3) & 1)
            let c = ((i >> 1) & 1) ^ ((i >> 2) & 1)
            let d = (i & 1) ^ ((i >> 1) & 1)
            let idx = ((d << 3) | (c << 2) | (b << 1) | a) >> (4 - n)
            T[i] = (i & 1) != 0 ? -copyT[idx] : copyT[idx]
        }
    }

    /// `SINPI_1_9` … `SINPI_4_9` (§7.13.2.6).
    static let SINPI_1_9 = 1321
    static let SINPI_2_9 = 2482
    static let SINPI_3_9 = 3344
    static let SINPI_4_9 = 3803

    /// §7.13.2.6, the inverse ADST4 process.
    mutating func inverseADST4() {
        // |T| < 2^21 on entry (see the type's note), so the products stay below 2^33.
        let t0 = T[0], t1 = T[1], t2 = T[2], t3 = T[3]
        var s0 = Self.SINPI_1_9 &* t0
        var s1 = Self.SINPI_2_9 &* t0
        var s2 = Self.SINPI_3_9 &* t1
        var s3 = Self.SINPI_4_9 &* t2
        let s4 = Self.SINPI_1_9 &* t2
        let s5 = Self.SINPI_2_9 &* t3
        let s6 = Self.SINPI_4_9 &* t3
        let a7 = t0 &- t2
        let b7 = a7 &+ t3

        s0 = s0 &+ s3
        s1 = s1 &- s4
        s3 = s2
        s2 = Self.SINPI_3_9 &* b7

        s0 = s0 &+ s5
        s1 = s1 &- s6

        let x0 = s0 &+ s3
        let x1 = s1 &+ s3
        let x2 = s2
        var x3 = s0 &+ s1

        x3 = x3 &- s3

        T[0] = AVIF.AV1Arithmetic.round2(x0, 12)
        T[1] = AVIF.AV1Arithmetic.round2(x1, 12)
        T[2] = AVIF.AV1Arithmetic.round2(x2, 12)
        T[3] = AVIF.AV1Arithmetic.round2(x3, 12)
    }

    /// §7.13.2.7, the inverse ADST8 process.
    mutating func inverseADST8(r: Int) {
        inverseADSTInputPermutation(n: 3)
        for i in 0..<4 { B(2 * i, 2 * i + 1, 60 - 16 * i, 1) }
        for i in 0..<4 { H(i, 4 + i, 0, r) }
        for i in 0..<2 { B(4 + 3 * i, 5 + i, 48 - 32 * i, 1) }
        for i in 0..<2 { for j in 0..<2 { H(4 * j + i, 2 + 4 * j + i, 0, r) } }
        for i in 0..<2 { B(2 + 4 * i, 3 + 4 * i, 32, 1) }
        inverseADSTOutputPermutation(n: 3)
    }

    /// §7.13.2.8, the inverse ADST16 process.
    mutating func inverseADST16(r: Int) {
        inverseADSTInputPermutation(n: 4)
        for i in 0..<8 { B(2 * i, 2 * i + 1, 62 - 8 * i, 1) }
        for i in 0..<8 { H(i, 8 + i, 0, r) }
        for i in 0..<2 {
            B(8 + 2 * i, 9 + 2 * i, 56 - 32 * i, 1)
            B(13 + 2 * i, 12 + 2 * i, 8 + 32 * i, 1)
        }
        for i in 0..<4 { for j in 0..<2 { H(8 * j + i, 4 + 8 * j + i, 0, r) } }
        for i in 0..<2 { for j in 0..<2 { B(4 + 8 * j + 3 * i, 5 + 8 * j + i, 48 - 32 * i, 1) } }
        for i in 0..<2 { for j in 0..<4 { H(4 * j + i, 2 + 4 * j + i, 0, r) } }
        for i in 0..<4 { B(2 + 4 * i, 3 + 4 * i, 32, 1) }
        inverseADSTOutputPermutation(n: 4)
    }

    /// §7.13.2.9, the inverse ADST of `1 << n` entries (2 ≤ n ≤ 4).
    mutating func inverseADST(n: Int, r: Int) {
        switch n {
        case 2: inverseADST4()
        case 3: inverseADST8(r: r)
        default: inverseADST16(r: r)
        }
    }
}
