extension AVIF.InverseTransform {
    /// `brev( numBits, x )` (§7.13.2.1): the low `numBits` bits of `x` in reverse order.
    @inline(__always)
    static func brev(_ numBits: Int, _ x: Int) -> Int {
        var t = 0
        for i in 0..<numBits {
            let bit = (x >> i) & 1
            t |= bit << (numBits - 1 - i)
        }
        return t
    }

    /// `cos128( angle )` (§7.13.2.1): 4096 cos( angle π / 128 ) from `Cos128_Lookup`.
    @inline(__always)
    static func cos128(_ angle: Int) -> Int {
        let angle2 = angle & 255
        let table = AVIF.AV1Tables.Cos128_Lookup
        if angle2 <= 64 { return table[angle2] }
        if angle2 <= 128 { return -table[128 - angle2] }
        if angle2 <= 192 { return -table[angle2 - 128] }
        return table[256 - angle2]
    }

    /// `sin128( angle )`: cos128( angle - 64 ).
    @inline(__always)
    static func sin128(_ angle: Int) -> Int {
        cos128(angle - 64)
    }

    /// `B( a, b, angle, flip, r )` (§7.13.2.1): a butterfly rotation of T[ a ], T[ b ], then
    /// their exchange when `flip` is 1. (The two-multiplication form the specification gives
    /// for angles 32 + 64k computes the same integers, so the general form serves for all.)
    @inline(__always)
    mutating func B(_ a: Int, _ b: Int, _ angle: Int, _ flip: Int) {
        let c = Self.cos128(angle), s = Self.sin128(angle)
        let ta = T[a], tb = T[b]
        // |T| < 2^40 (see the type's note) and |cos|, |sin| ≤ 4096: no wrap.
        let x = ta &* c &- tb &* s
        let y = ta &* s &+ tb &* c
        let ra = AVIF.AV1Arithmetic.round2(x, 12)
        let rb = AVIF.AV1Arithmetic.round2(y, 12)
        if flip == 1 {
            T[a] = rb
            T[b] = ra
        } else {
            T[a] = ra
            T[b] = rb
        }
    }

    /// `H( a, b, flip, r )` (§7.13.2.1): a Hadamard rotation clamped to `r` signed bits;
    /// with `flip` 1 it is H( b, a, 0, r ).
    @inline(__always)
    mutating func H(_ a: Int, _ b: Int, _ flip: Int, _ r: Int) {
        let (ia, ib) = flip == 1 ? (b, a) : (a, b)
        let x = T[ia], y = T[ib]
        let low = -(1 << (r - 1)), high = (1 << (r - 1)) - 1
        T[ia] = AVIF.AV1Arithmetic.clip3(low, high, x &+ y)
        T[ib] = AVIF.AV1Arithmetic.clip3(low, high, x &- y)
    }
}
