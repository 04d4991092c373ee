extension PNG {
    /// The part of the Paeth predictor (PNG §9.4) that depends only on the row
    /// above, for 8-bit samples in 16-bit lanes: one pixel of each of two rows
    /// (or one pixel and four idle lanes).
    ///
    /// Paeth unfiltering is one dependency chain through the row: each pixel's
    /// predictor needs its left neighbour `a`, which is the previous pixel's
    /// output. Written as `c + r` with `r` one of `a − c`, `b − c` or 0, the
    /// choice depends on `a` only through `t = a − c`, and every bound `t` is
    /// compared with comes from `b` and `c`. With `d = b − c`:
    ///
    /// - `r = t` (pick `a`) when `t ≥ max(d, −2d)` or `t ≤ min(d, −2d)`: that is
    ///   where `|b − c| ≤ |a − c|` and `|b − c| ≤ |a + b − 2c|`;
    /// - else `r = d` (pick `b`) when `|a − c| ≤ |a + b − 2c|`, which is
    ///   `2t ≥ −d` for `d > 0` and `2t ≤ −d` for `d < 0`;
    /// - else `r = 0` (pick `c`).
    ///
    /// Ties fall as in the specification (a, then b). The form was checked
    /// against the specification's predictor on all 2^24 triples when it was
    /// derived; the tests check every (b, c) with sixteen values of a, and
    /// every a for the extreme values of b.
    /// Computing the bounds before `a` is known leaves two compares and a few
    /// selects between one output pixel and the next, against about eleven
    /// operations for the min/max threshold form.
    struct PaethAbove {
        // Concrete on purpose: a version generic over the vector type was not
        // inlined, and its SIMD operations went lane by lane (rgba8-1080x1920:
        // 56 ms against 20). The members are `@_transparent` because
        // `@inline(__always)` left the initializer as a call on every pixel.
        typealias Vector = SIMD8<Int16>

        /// The upper-left samples.
        let c: Vector
        /// `b − c`.
        let d: Vector
        /// `max(d, −2d)` and `min(d, −2d)`: outside the open range between them, `t` picks `a`.
        let upper: Vector
        let lower: Vector
        /// All ones where `d < 0`: there `t` is complemented (`−t − 1`) so that the
        /// `b` test is one `≥` comparison in both signs.
        let flip: Vector
        /// `−⌊|d| / 2⌋` where `d > 0`; `⌊|d| / 2⌋` complemented where `d < 0`.
        let threshold: Vector

        @_transparent
        init(b: Vector, c: Vector) {
            self.c = c
            let d = b &- c
            self.d = d
            let twice = Vector.zero &- (d &+ d)
            let dAbove = d .> twice
            upper = twice.replacing(with: d, where: dAbove)
            lower = d.replacing(with: twice, where: dAbove)
            let negative = d .< Vector.zero
            let flip = Vector.zero.replacing(with: -1, where: negative)
            self.flip = flip
            let half = d.replacing(with: Vector.zero &- d, where: negative) &>> 1
            threshold = (Vector.zero &- half) &+ flip
        }

        /// `predictor − c` for the left samples `a`, given as `t = a − c`.
        @_transparent
        func offset(_ t: Vector) -> Vector {
            let towardB = Vector.zero.replacing(with: d, where: (t ^ flip) .>= threshold)
            return towardB.replacing(with: t, where: (t .>= upper) .| (t .<= lower))
        }

        /// The output samples for filtered samples `x` with left neighbours `a`
        /// (both in 0...255): `(x + predictor) mod 256`.
        @_transparent
        func unfilter(_ x: Vector, left a: Vector) -> Vector {
            // x + c is off the chain; only the offset waits for `a`.
            ((x &+ c) &+ offset(a &- c)) & 0xFF
        }

        /// ``unfilter(_:left:)`` for one pixel: `b` and `c` the samples above and
        /// upper left.
        @_transparent
        static func unfilter(_ x: SIMD4<Int16>, left a: SIMD4<Int16>, above b: SIMD4<Int16>,
                             upperLeft c: SIMD4<Int16>) -> SIMD4<Int16> {
            let idle = SIMD4<Int16>.zero
            return PaethAbove(b: Vector(lowHalf: b, highHalf: idle), c: Vector(lowHalf: c, highHalf: idle))
                .unfilter(Vector(lowHalf: x, highHalf: idle), left: Vector(lowHalf: a, highHalf: idle)).lowHalf
        }
    }
}
