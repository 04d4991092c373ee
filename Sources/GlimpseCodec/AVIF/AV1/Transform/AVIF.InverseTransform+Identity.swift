extension AVIF.InverseTransform {
    /// §7.13.2.10, the inverse Walsh–Hadamard transform of T[ 0...3 ] (lossless blocks), after
    /// a pre-scaling right shift by `shift`.
    mutating func inverseWHT(shift: Int) {
        var a = T[0] >> shift
        var c = T[1] >> shift
        var d = T[2] >> shift
        var b = T[3] >> shift
        // Lossless coefficients are clamped to BitDepth + 8 bits (§7.12.3): sums cannot wrap.
        a = a &+ c
        d = d &- b
        let e = (a &- d) >> 1
        b = e &- b
        c = e &- c
        a = a &- b
        d = d &+ c
        T[0] = a
        T[1] = b
        T[2] = c
        T[3] = d
    }

    /// §7.13.2.11–§7.13.2.15, the inverse identity transform of `1 << n` entries (2 ≤ n ≤ 5).
    mutating func inverseIdentity(n: Int) {
        // Entries are below 2^40 (see the type's note): the products cannot wrap.
        switch n {
        case 2: for i in 0..<4 { T[i] = AVIF.AV1Arithmetic.round2(T[i] &* 5793, 12) }
        case 3: for i in 0..<8 { T[i] = T[i] &* 2 }
        case 4: for i in 0..<16 { T[i] = AVIF.AV1Arithmetic.round2(T[i] &* 11586, 12) }
        default: for i in 0..<32 { T[i] = T[i] &* 4 }
        }
    }
}
