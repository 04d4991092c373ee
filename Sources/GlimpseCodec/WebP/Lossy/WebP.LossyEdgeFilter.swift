/// The loop filters of ``WebP/LossyLoopFilter`` on 16 positions of an edge at
/// once, arranged as libwebp's SSE2 filters are: the eight pixels across the
/// edge at each position are one byte lane of eight 16-byte vectors; the tests
/// that pick a filter per position run on the bytes, unsigned and saturating;
/// the filters' arithmetic runs in 16-bit lanes, as two halves (the even and
/// the odd positions), and its results are blended back into the bytes where
/// the tests chose them. Results equal the scalar filters' exactly (the same
/// integer operations; 16-bit lanes never overflow: the largest intermediate is
/// 27 × 127 + 63).
extension WebP {
    enum LossyEdgeFilter {
        typealias Bytes = SIMD16<UInt8>
        private typealias Interleave = WebP.LaneInterleave
        /// Eight positions in 16-bit lanes: one SSE2 register each.
        typealias Lanes = SIMD8<Int16>

        /// The pixels p3…q3 across an edge, one byte lane per position along it.
        struct Edge {
            var p3 = Bytes(), p2 = Bytes(), p1 = Bytes(), p0 = Bytes()
            var q0 = Bytes(), q1 = Bytes(), q2 = Bytes(), q3 = Bytes()
        }

        // MARK: Operations without loops
        //
        // The standard library implements `&`, `|`, `replacing(with:where:)` and
        // pointwise minimum and maximum of integer vectors as loops over the lanes, which
        // LLVM turns back into single instructions, but only after the Swift optimiser
        // has counted every loop's blocks against its inlining budget (an
        // `@inline(__always)` callee of more than 64 SIL blocks is inlined only into a
        // caller of fewer than 64, other callees not into one past 400). The
        // comparisons and wrapping `&+`, `&-` and `&*` of concrete vector types, and the
        // operators of `SIMDMask` on concrete storage, are single instructions from the start, so
        // bitwise operations go through masks; selects are `and`/`andnot`/`or`,
        // which LLVM folds with the comparison before them into `pmaxub`, `pminsw`…
        // (a vector reinterpreted as a mask is only ever combined bit by bit, never read
        // lane by lane as booleans, so any bit pattern is fine). Shifts have no such
        // form and stay loops; there are few of them. The helpers are `@_transparent`,
        // inlined before the budget is counted: with `@inline(__always)` alone the
        // filter was left as a dozen calls per edge.

        typealias ByteMask = SIMDMask<SIMD16<Int8>>
        typealias LaneMask = SIMDMask<SIMD8<Int16>>

        @_transparent private static func mask(_ v: Bytes) -> ByteMask { unsafeBitCast(v, to: ByteMask.self) }
        @_transparent private static func bytes(_ m: ByteMask) -> Bytes { unsafeBitCast(m, to: Bytes.self) }
        @_transparent private static func mask(_ v: Lanes) -> LaneMask { unsafeBitCast(v, to: LaneMask.self) }
        @_transparent private static func lanes(_ m: LaneMask) -> Lanes { unsafeBitCast(m, to: Lanes.self) }

        /// `a` where `m` is set, else `b`.
        @_transparent private static func select(_ m: ByteMask, _ a: Bytes, _ b: Bytes) -> Bytes {
            bytes((m .& mask(a)) .| (.!m .& mask(b)))
        }
        @_transparent private static func select(_ m: LaneMask, _ a: Lanes, _ b: Lanes) -> Lanes {
            lanes((m .& mask(a)) .| (.!m .& mask(b)))
        }

        /// `b` where `m` is set, else `a`.
        @_transparent private static func blend(_ a: Bytes, _ b: Bytes, _ m: ByteMask) -> Bytes { select(m, b, a) }

        /// Whether any lane of `m` is set (the standard library's `any` reduces through a generic minimum).
        @_transparent private static func isAnySet(_ m: ByteMask) -> Bool {
            let (low, high) = unsafeBitCast(m, to: (UInt64, UInt64).self)
            return low | high != 0
        }

        // MARK: Tests on bytes

        @_transparent private static func maximum(_ a: Bytes, _ b: Bytes) -> Bytes { select(a .< b, b, a) }
        @_transparent private static func minimum(_ a: Bytes, _ b: Bytes) -> Bytes { select(a .< b, a, b) }
        @_transparent private static func absoluteDifference(_ a: Bytes, _ b: Bytes) -> Bytes {
            maximum(a, b) &- minimum(a, b)
        }
        @_transparent private static func addSaturating(_ a: Bytes, _ b: Bytes) -> Bytes {
            let sum = a &+ b
            return bytes(mask(sum) .| (sum .< a))
        }

        /// `4|p0−q0| + |p1−q1| ≤ 2·limit + 1` as libwebp's SSE2 code tests it:
        /// `2|p0−q0| + ⌊|p1−q1|/2⌋ ≤ limit`, the same for integers, in saturating
        /// bytes (exact while `limit` < 255: the picture header makes it at most 193).
        @_transparent private static func edgeMask(_ e: Edge, limit: Int32) -> ByteMask {
            let d0 = absoluteDifference(e.p0, e.q0), d1 = absoluteDifference(e.p1, e.q1)
            // Halved as 16-bit words, then each byte's top bit (the bit from the byte above) cleared.
            let halfD1 = bytes(mask(unsafeBitCast(unsafeBitCast(d1, to: SIMD8<UInt16>.self) &>> 1, to: Bytes.self))
                               .& mask(Bytes(repeating: 0x7f)))
            return addSaturating(addSaturating(d0, d0), halfD1) .<= Bytes(repeating: UInt8(truncatingIfNeeded: limit))
        }

        // MARK: Arithmetic in 16-bit halves

        // Widening and narrowing by masks and shifts of 16-bit words keep the lanes
        // interleaved (even positions in one half, odd in the other); the standard
        // library's converting initialisers between vector types are generic calls.
        @_transparent private static func widen(_ bytes: Bytes, odd: Bool) -> Lanes {
            let words = unsafeBitCast(bytes, to: Lanes.self)
            return odd ? unsafeBitCast(unsafeBitCast(words, to: SIMD8<UInt16>.self) &>> 8, to: Lanes.self)
                       : lanes(mask(words) .& mask(Lanes(repeating: 0x00ff)))
        }
        /// Both halves in 0...255.
        @_transparent private static func narrow(_ even: Lanes, _ odd: Lanes) -> Bytes {
            unsafeBitCast(mask(even) .| mask(odd &* 256), to: Bytes.self)
        }

        @_transparent private static func clamp(_ v: Lanes, _ low: Int16, _ high: Int16) -> Lanes {
            let lows = Lanes(repeating: low), highs = Lanes(repeating: high)
            let raised = select(v .< lows, lows, v)
            return select(raised .> highs, highs, raised)
        }
        @_transparent private static func pixel(_ v: Lanes) -> Lanes { clamp(v, 0, 255) }

        /// What each filter makes of one half's pixels, for every lane; the tests pick.
        private struct Candidates {
            /// The 2-tap filter (the simple filter, and high-variance positions): p0, q0.
            var p0: Lanes, q0: Lanes
            /// The 6-tap (macroblock edge) or 4-tap (inner edge) filter: p2…q2
            /// (the 4-tap leaves p2 and q2 as they are).
            var wideP2: Lanes, wideP1: Lanes, wideP0: Lanes, wideQ0: Lanes, wideQ1: Lanes, wideQ2: Lanes

            @_transparent
            init(_ e: Edge, odd: Bool, wide: Bool, macroblockEdge: Bool) {
                let p1 = widen(e.p1, odd: odd), p0 = widen(e.p0, odd: odd)
                let q0 = widen(e.q0, odd: odd), q1 = widen(e.q1, odd: odd)
                let p1q1 = clamp(p1 &- q1, -128, 127)
                let step = (q0 &- p0) &* 3
                let a = step &+ p1q1
                self.p0 = pixel(p0 &+ clamp((a &+ 3) &>> 3, -16, 15))
                self.q0 = pixel(q0 &- clamp((a &+ 4) &>> 3, -16, 15))
                guard wide else {
                    (wideP2, wideP1, wideP0, wideQ0, wideQ1, wideQ2) = (p0, p1, p0, q0, q1, q0)
                    return
                }
                if macroblockEdge {
                    let p2 = widen(e.p2, odd: odd), q2 = widen(e.q2, odd: odd)
                    let w = clamp(a, -128, 127)
                    let w1 = (w &* 27 &+ 63) &>> 7, w2 = (w &* 18 &+ 63) &>> 7, w3 = (w &* 9 &+ 63) &>> 7
                    wideP2 = pixel(p2 &+ w3); wideP1 = pixel(p1 &+ w2); wideP0 = pixel(p0 &+ w1)
                    wideQ0 = pixel(q0 &- w1); wideQ1 = pixel(q1 &- w2); wideQ2 = pixel(q2 &- w3)
                } else {
                    let f1 = clamp((step &+ 4) &>> 3, -16, 15), f2 = clamp((step &+ 3) &>> 3, -16, 15)
                    let f3 = (f1 &+ 1) &>> 1
                    wideP2 = p0; wideQ2 = q0  // unused
                    wideP1 = pixel(p1 &+ f3); wideP0 = pixel(p0 &+ f2)
                    wideQ0 = pixel(q0 &- f1); wideQ1 = pixel(q1 &- f3)
                }
            }
        }

        // MARK: The filters

        /// The simple filter (RFC 6386 §15.2): p0 and q0 move where `4|p0−q0| + |p1−q1| ≤ 2·limit + 1`.
        @_transparent
        static func simple(_ e: inout Edge, limit: Int32) {
            let mask = edgeMask(e, limit: limit)
            guard isAnySet(mask) else { return }
            let even = Candidates(e, odd: false, wide: false, macroblockEdge: false)
            let odd = Candidates(e, odd: true, wide: false, macroblockEdge: false)
            e.p0 = blend(e.p0, narrow(even.p0, odd.p0), mask)
            e.q0 = blend(e.q0, narrow(even.q0, odd.q0), mask)
        }

        /// The normal filter (RFC 6386 §15.3): 6-tap on macroblock edges, 4-tap
        /// on inner edges, 2-tap where the edge variance is high.
        @_transparent
        static func normal(_ e: inout Edge, limit: Int32, interior: Int32, hevThreshold: Int32, macroblockEdge: Bool) {
            let p1p0 = absoluteDifference(e.p1, e.p0), q1q0 = absoluteDifference(e.q1, e.q0)
            let interiorMaximum = maximum(maximum(maximum(absoluteDifference(e.p3, e.p2), absoluteDifference(e.p2, e.p1)),
                                                  maximum(absoluteDifference(e.q3, e.q2), absoluteDifference(e.q2, e.q1))),
                                          maximum(p1p0, q1q0))
            let mask = edgeMask(e, limit: limit)
                .& (interiorMaximum .<= Bytes(repeating: UInt8(truncatingIfNeeded: interior)))
            guard isAnySet(mask) else { return }
            let hev = maximum(p1p0, q1q0) .> Bytes(repeating: UInt8(truncatingIfNeeded: hevThreshold))
            let twoTap = mask .& hev, wide = mask .& .!hev

            let even = Candidates(e, odd: false, wide: true, macroblockEdge: macroblockEdge)
            let odd = Candidates(e, odd: true, wide: true, macroblockEdge: macroblockEdge)
            e.p0 = blend(blend(e.p0, narrow(even.wideP0, odd.wideP0), wide), narrow(even.p0, odd.p0), twoTap)
            e.q0 = blend(blend(e.q0, narrow(even.wideQ0, odd.wideQ0), wide), narrow(even.q0, odd.q0), twoTap)
            e.p1 = blend(e.p1, narrow(even.wideP1, odd.wideP1), wide)
            e.q1 = blend(e.q1, narrow(even.wideQ1, odd.wideQ1), wide)
            if macroblockEdge {
                e.p2 = blend(e.p2, narrow(even.wideP2, odd.wideP2), wide)
                e.q2 = blend(e.q2, narrow(even.wideQ2, odd.wideQ2), wide)
            }
        }

        // MARK: Moving pixels between planes and lanes

        @_transparent private static func load(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
            // 16 bytes at p are inside the plane cache (the caller filters whole macroblock rows).
            UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
        }
        @_transparent private static func store(_ v: SIMD16<UInt8>, _ p: UnsafeMutablePointer<UInt8>) {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<UInt8>.self)
        }
        @_transparent private static func load(_ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
            // 8 bytes of each chroma plane at u and v are inside the cache.
            let pair = (UnsafeRawPointer(u).loadUnaligned(as: UInt64.self), UnsafeRawPointer(v).loadUnaligned(as: UInt64.self))
            return unsafeBitCast(pair, to: SIMD16<UInt8>.self)
        }
        @_transparent private static func store(_ bytes: SIMD16<UInt8>, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>) {
            let (low, high) = unsafeBitCast(bytes, to: (UInt64, UInt64).self)
            UnsafeMutableRawPointer(u).storeBytes(of: low, as: UInt64.self)
            UnsafeMutableRawPointer(v).storeBytes(of: high, as: UInt64.self)
        }

        /// The 16 luma pixels on each side of a horizontal edge above `p` (rows `stride` apart).
        @_transparent
        static func loadHorizontal(_ p: UnsafeMutablePointer<UInt8>, stride s: Int, wide: Bool) -> Edge {
            var e = Edge()
            if wide { e.p3 = load(p - 4 &* s); e.p2 = load(p - 3 &* s); e.q2 = load(p + 2 &* s); e.q3 = load(p + 3 &* s) }
            e.p1 = load(p - 2 &* s); e.p0 = load(p - s); e.q0 = load(p); e.q1 = load(p + s)
            return e
        }

        @_transparent
        static func storeHorizontal(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, stride s: Int, wide: Bool) {
            if wide { store(e.p2, p - 3 &* s); store(e.q2, p + 2 &* s) }
            store(e.p1, p - 2 &* s); store(e.p0, p - s); store(e.q0, p); store(e.q1, p + s)
        }

        /// The chroma pixels of both planes across a horizontal edge (U in lanes 0–7, V in 8–15).
        @_transparent
        static func loadHorizontal(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int) -> Edge {
            var e = Edge()
            e.p3 = load(u - 4 &* s, v - 4 &* s); e.p2 = load(u - 3 &* s, v - 3 &* s)
            e.p1 = load(u - 2 &* s, v - 2 &* s); e.p0 = load(u - s, v - s)
            e.q0 = load(u, v); e.q1 = load(u + s, v + s)
            e.q2 = load(u + 2 &* s, v + 2 &* s); e.q3 = load(u + 3 &* s, v + 3 &* s)
            return e
        }

        @_transparent
        static func storeHorizontal(_ e: Edge, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int) {
            store(e.p2, u - 3 &* s, v - 3 &* s); store(e.p1, u - 2 &* s, v - 2 &* s)
            store(e.p0, u - s, v - s); store(e.q0, u, v)
            store(e.q1, u + s, v + s); store(e.q2, u + 2 &* s, v + 2 &* s)
        }

        /// The pixels across a vertical edge of 16 rows, row `i` in lane `i`:
        /// rows 0–7 start at `upper`, rows 8–15 at `lower` (the next 8 luma
        /// rows, or the V plane beside U), `stride` apart. The 16 rows of 8 bytes
        /// (4 each side of the edge) are transposed into 8 columns of 16 as libwebp's
        /// SSE2 filters do: byte pairs of neighbouring rows, then 4-row, 8-row and
        /// 16-row columns.
        @_transparent
        static func loadVertical(_ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>,
                                 stride s: Int) -> Edge {
            // Each of the 16 rows has 4 readable pixels left of the edge and 4 from it on
            // (every filtered edge is at least 4 pixels inside the row).
            @inline(__always) func row(_ i: Int) -> Bytes {
                let p = i < 8 ? upper + (i &* s &- 4) : lower + ((i &- 8) &* s &- 4)
                let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
                // The upper half is never used; a copy rather than zeros, which LLVM would fold into worse shuffles.
                return unsafeBitCast(SIMD2<UInt64>(word, word), to: Bytes.self)
            }
            // Rows 2k and 2k + 1, byte by byte: 16-bit unit j is column j of the two rows.
            let t0 = Interleave.low8(row(0), row(1)), t1 = Interleave.low8(row(2), row(3))
            let t2 = Interleave.low8(row(4), row(5)), t3 = Interleave.low8(row(6), row(7))
            let t4 = Interleave.low8(row(8), row(9)), t5 = Interleave.low8(row(10), row(11))
            let t6 = Interleave.low8(row(12), row(13)), t7 = Interleave.low8(row(14), row(15))
            // 32-bit unit j: column j (or j + 4 from `high16`) of four rows.
            let a0 = Interleave.low16(t0, t1), a1 = Interleave.high16(t0, t1)
            let b0 = Interleave.low16(t2, t3), b1 = Interleave.high16(t2, t3)
            let c0 = Interleave.low16(t4, t5), c1 = Interleave.high16(t4, t5)
            let d0 = Interleave.low16(t6, t7), d1 = Interleave.high16(t6, t7)
            // 64-bit units: two columns of rows 0–7 (e) and of rows 8–15 (f).
            let e0 = Interleave.low32(a0, b0), e1 = Interleave.high32(a0, b0)
            let e2 = Interleave.low32(a1, b1), e3 = Interleave.high32(a1, b1)
            let f0 = Interleave.low32(c0, d0), f1 = Interleave.high32(c0, d0)
            let f2 = Interleave.low32(c1, d1), f3 = Interleave.high32(c1, d1)
            return Edge(p3: Interleave.low64(e0, f0), p2: Interleave.high64(e0, f0),
                        p1: Interleave.low64(e1, f1), p0: Interleave.high64(e1, f1),
                        q0: Interleave.low64(e2, f2), q1: Interleave.high64(e2, f2),
                        q2: Interleave.low64(e3, f3), q3: Interleave.high64(e3, f3))
        }

        /// Writes an edge read by ``loadVertical(_:_:stride:)`` back (all eight pixels per row):
        /// the same interleaves in reverse, columns into rows.
        @_transparent
        static func storeVertical(_ e: Edge, _ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>,
                                  stride s: Int) {
            // 16-bit unit r: columns 2k and 2k + 1 of row r (rows 0–7 from `low8`, 8–15 from `high8`).
            let g0 = Interleave.low8(e.p3, e.p2), g1 = Interleave.high8(e.p3, e.p2)
            let g2 = Interleave.low8(e.p1, e.p0), g3 = Interleave.high8(e.p1, e.p0)
            let g4 = Interleave.low8(e.q0, e.q1), g5 = Interleave.high8(e.q0, e.q1)
            let g6 = Interleave.low8(e.q2, e.q3), g7 = Interleave.high8(e.q2, e.q3)
            // 32-bit unit: four columns of one row.
            let h0 = Interleave.low16(g0, g2), h1 = Interleave.high16(g0, g2)
            let h2 = Interleave.low16(g4, g6), h3 = Interleave.high16(g4, g6)
            let h4 = Interleave.low16(g1, g3), h5 = Interleave.high16(g1, g3)
            let h6 = Interleave.low16(g5, g7), h7 = Interleave.high16(g5, g7)
            // 64-bit units: whole rows, two a vector.
            let rows = (Interleave.low32(h0, h2), Interleave.high32(h0, h2), Interleave.low32(h1, h3), Interleave.high32(h1, h3),
                        Interleave.low32(h4, h6), Interleave.high32(h4, h6), Interleave.low32(h5, h7), Interleave.high32(h5, h7))
            @inline(__always) func store(_ pair: Bytes, _ i: Int) {
                let (first, second) = unsafeBitCast(pair, to: (UInt64, UInt64).self)
                let p = i < 8 ? upper + (i &* s &- 4) : lower + ((i &- 8) &* s &- 4)
                UnsafeMutableRawPointer(p).storeBytes(of: first, as: UInt64.self)
                UnsafeMutableRawPointer(p + s).storeBytes(of: second, as: UInt64.self)
            }
            store(rows.0, 0); store(rows.1, 2); store(rows.2, 4); store(rows.3, 6)
            store(rows.4, 8); store(rows.5, 10); store(rows.6, 12); store(rows.7, 14)
        }
    }
}
