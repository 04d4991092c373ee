extension AVIF.InverseTransform {
    /// §7.13.2.2, the inverse DCT array permutation: T[ i ] = copyT[ brev( n, i ) ].
    ///
    /// A bit reversal is its own inverse, so the permutation is the exchange of each pair
    /// i < brev( n, i ), in place, with brev from ``bitReversals``.
    mutating func inverseDCTPermutation(n: Int) {
        guard n >= 2, n <= 6 else { return }
        let count = 1 << n
        let offset = Self.bitReversalOffset(n)
        for i in 0..<count {
            let j = Int(Self.bitReversals[offset + i])
            if i < j { T.swapAt(i, j) }
        }
    }

    /// `brev( n, i )` for n = 2…6 and i < 2^n, the table for n at ``bitReversalOffset(_:)``.
    static let bitReversals: [UInt8] = (2...6).flatMap { n in (0..<(1 << n)).map { UInt8(brev(n, $0)) } }

    /// Where the entries for `n` start in ``bitReversals``: after 4 + 8 + … + 2^(n − 1).
    @inline(__always)
    static func bitReversalOffset(_ n: Int) -> Int { (1 << n) - 4 }

    /// §7.13.2.3, the inverse DCT of `1 << n` entries (2 ≤ n ≤ 6) with clamping range `r`,
    /// step by step as the specification numbers them.
    mutating func inverseDCT(n: Int, r: Int) {
        // 1.
        inverseDCTPermutation(n: n)
        // 2.
        if n == 6 { for i in 0..<16 { B(32 + i, 63 - i, 63 - 4 * Self.brev(4, i), 0) } }
        // 3.
        if n >= 5 { for i in 0..<8 { B(16 + i, 31 - i, 6 + (Self.brev(3, 7 - i) << 3), 0) } }
        // 4.
        if n == 6 { for i in 0..<16 { H(32 + i * 2, 33 + i * 2, i & 1, r) } }
        // 5.
        if n >= 4 { for i in 0..<4 { B(8 + i, 15 - i, 12 + (Self.brev(2, 3 - i) << 4), 0) } }
        // 6.
        if n >= 5 { for i in 0..<8 { H(16 + 2 * i, 17 + 2 * i, i & 1, r) } }
        // 7.
        if n == 6 {
            for i in 0..<4 {
                for j in 0..<2 { B(62 - i * 4 - j, 33 + i * 4 + j, 60 - 16 * Self.brev(2, i) + 64 * j, 1) }
            }
        }
        // 8.
        if n >= 3 { for i in 0..<2 { B(4 + i, 7 - i, 56 - 32 * i, 0) } }
        // 9.
        if n >= 4 { for i in 0..<4 { H(8 + 2 * i, 9 + 2 * i, i & 1, r) } }
        // 10.
        if n >= 5 {
            for i in 0..<2 {
                for j in 0..<2 { B(30 - 4 * i - j, 17 + 4 * i + j, 24 + (j << 6) + ((1 - i) << 5), 1) }
            }
        }
        // 11.
        if n == 6 { for i in 0..<8 { for j in 0..<2 { H(32 + i * 4 + j, 35 + i * 4 - j, i & 1, r) } } }
        // 12.
        for i in 0..<2 { B(2 * i, 2 * i + 1, 32 + 16 * i, 1 - i) }
        // 13.
        if n >= 3 { for i in 0..<2 { H(4 + 2 * i, 5 + 2 * i, i, r) } }
        // 14.
        if n >= 4 { for i in 0..<2 { B(14 - i, 9 + i, 48 + 64 * i, 1) } }
        // 15.
        if n >= 5 { for i in 0..<4 { for j in 0..<2 { H(16 + 4 * i + j, 19 + 4 * i - j, i & 1, r) } } }
        // 16.
        if n == 6 {
            for i in 0..<2 {
                for j in 0..<4 { B(61 - i * 8 - j, 34 + i * 8 + j, 56 - i * 32 + (j >> 1) * 64, 1) }
            }
        }
        // 17.
        for i in 0..<2 { H(i, 3 - i, 0, r) }
        // 18.
        if n >= 3 { B(6, 5, 32, 1) }
        // 19.
        if n >= 4 { for i in 0..<2 { for j in 0..<2 { H(8 + 4 * i + j, 11 + 4 * i - j, i, r) } } }
        // 20.
        if n >= 5 { for i in 0..<4 { B(29 - i, 18 + i, 48 + (i >> 1) * 64, 1) } }
        // 21.
        if n == 6 { for i in 0..<4 { for j in 0..<4 { H(32 + 8 * i + j, 39 + 8 * i - j, i & 1, r) } } }
        // 22.
        if n >= 3 { for i in 0..<4 { H(i, 7 - i, 0, r) } }
        // 23.
        if n >= 4 { for i in 0..<2 { B(13 - i, 10 + i, 32, 1) } }
        // 24.
        if n >= 5 { for i in 0..<2 { for j in 0..<4 { H(16 + i * 8 + j, 23 + i * 8 - j, i, r) } } }
        // 25.
        if n == 6 { for i in 0..<8 { B(59 - i, 36 + i, i < 4 ? 48 : 112, 1) } }
        // 26.
        if n >= 4 { for i in 0..<8 { H(i, 15 - i, 0, r) } }
        // 27.
        if n >= 5 { for i in 0..<4 { B(27 - i, 20 + i, 32, 1) } }
        // 28.
        if n == 6 {
            for i in 0..<8 {
                H(32 + i, 47 - i, 0, r)
                H(48 + i, 63 - i, 1, r)
            }
        }
        // 29.
        if n >= 5 { for i in 0..<16 { H(i, 31 - i, 0, r) } }
        // 30.
        if n == 6 { for i in 0..<8 { B(55 - i, 40 + i, 32, 1) } }
        // 31.
        if n == 6 { for i in 0..<32 { H(i, 63 - i, 0, r) } }
    }
}
