/// The loop filters of ``WebP/LossyLoopFilter`` on 16 positions of an edge at
/// once: the eight pixels across the edge at each position are one 16-lane
/// vector each, every filter variant is computed for all lanes and the lanes
/// take the variant libwebp's per-pixel tests pick. Results equal the scalar
/// filters' exactly (same integer operations, 16-bit lanes never overflow:
/// the largest intermediate is 27 × 127 + 63).
extension WebP {
    enum LossyEdgeFilter {
        typealias Lanes = SIMD16<Int16>

        /// The pixels p3…q3 across an edge, one lane per position along it.
        struct Edge {
            var p3 = Lanes(), p2 = Lanes(), p1 = Lanes(), p0 = Lanes()
            var q0 = Lanes(), q1 = Lanes(), q2 = Lanes(), q3 = Lanes()
        }

        // Minimum, maximum and absolute value in shifts and masks only: these
        // operators compile to vector instructions, while the standard library's
        // generic pointwiseMin/Max go lane by lane. Lanes hold values far from
        // the Int16 limits (|v| < 2048), so the differences cannot overflow.
        @inline(__always) private static func maximum(_ a: Lanes, _ b: Lanes) -> Lanes {
            let d = b &- a
            return a &+ (d & ~(d &>> 15))
        }
        @inline(__always) private static func minimum(_ a: Lanes, _ b: Lanes) -> Lanes {
            let d = b &- a
            return a &+ (d & (d &>> 15))
        }
        @inline(__always) private static func absoluteDifference(_ a: Lanes, _ b: Lanes) -> Lanes {
            let d = a &- b, sign = d &>> 15
            return (d ^ sign) &- sign
        }
        @inline(__always) private static func clamp(_ v: Lanes, _ low: Int16, _ high: Int16) -> Lanes {
            minimum(maximum(v, Lanes(repeating: low)), Lanes(repeating: high))
        }
        @inline(__always) private static func pixel(_ v: Lanes) -> Lanes { clamp(v, 0, 255) }

        /// The simple filter (RFC 6386 §15.2): p0 and q0 move where `4|p0−q0| + |p1−q1| ≤ 2·limit + 1`.
        @inline(__always)
        static func simple(_ e: inout Edge, limit: Int32) {
            let t = Int16(truncatingIfNeeded: 2 &* limit &+ 1)
            let mask = (absoluteDifference(e.p0, e.q0) &* 4 &+ absoluteDifference(e.p1, e.q1)) .<= Lanes(repeating: t)
            let a = (e.q0 &- e.p0) &* 3 &+ clamp(e.p1 &- e.q1, -128, 127)
            let a1 = clamp((a &+ 4) &>> 3, -16, 15), a2 = clamp((a &+ 3) &>> 3, -16, 15)
            e.p0.replace(with: pixel(e.p0 &+ a2), where: mask)
            e.q0.replace(with: pixel(e.q0 &- a1), where: mask)
        }

        /// The normal filter (RFC 6386 §15.3): 6-tap on macroblock edges, 4-tap
        /// on inner edges, 2-tap where the edge variance is high.
        @inline(__always)
        static func normal(_ e: inout Edge, limit: Int32, interior: Int32, hevThreshold: Int32, macroblockEdge: Bool) {
            let t = Lanes(repeating: Int16(truncatingIfNeeded: 2 &* limit &+ 1))
            let it = Lanes(repeating: Int16(truncatingIfNeeded: interior))
            let ht = Lanes(repeating: Int16(truncatingIfNeeded: hevThreshold))
            let p1p0 = absoluteDifference(e.p1, e.p0), q1q0 = absoluteDifference(e.q1, e.q0)
            var mask = (absoluteDifference(e.p0, e.q0) &* 4 &+ absoluteDifference(e.p1, e.q1)) .<= t
            mask .&= absoluteDifference(e.p3, e.p2) .<= it
            mask .&= absoluteDifference(e.p2, e.p1) .<= it
            mask .&= p1p0 .<= it
            mask .&= absoluteDifference(e.q3, e.q2) .<= it
            mask .&= absoluteDifference(e.q2, e.q1) .<= it
            mask .&= q1q0 .<= it
            if !any(mask) { return }
            let hev = (p1p0 .> ht) .| (q1q0 .> ht)
            let twoTap = mask .& hev, wide = mask .& .!hev

            let p1q1 = clamp(e.p1 &- e.q1, -128, 127)
            let step = (e.q0 &- e.p0) &* 3
            // 2-tap (high variance): only p0 and q0 move.
            let a = step &+ p1q1
            let a1 = clamp((a &+ 4) &>> 3, -16, 15), a2 = clamp((a &+ 3) &>> 3, -16, 15)
            var p0 = e.p0.replacing(with: pixel(e.p0 &+ a2), where: twoTap)
            var q0 = e.q0.replacing(with: pixel(e.q0 &- a1), where: twoTap)
            if any(wide) {
                if macroblockEdge {
                    let w = clamp(step &+ p1q1, -128, 127)
                    let w1 = (w &* 27 &+ 63) &>> 7, w2 = (w &* 18 &+ 63) &>> 7, w3 = (w &* 9 &+ 63) &>> 7
                    e.p2.replace(with: pixel(e.p2 &+ w3), where: wide)
                    e.p1.replace(with: pixel(e.p1 &+ w2), where: wide)
                    p0.replace(with: pixel(e.p0 &+ w1), where: wide)
                    q0.replace(with: pixel(e.q0 &- w1), where: wide)
                    e.q1.replace(with: pixel(e.q1 &- w2), where: wide)
                    e.q2.replace(with: pixel(e.q2 &- w3), where: wide)
                } else {
                    let f1 = clamp((step &+ 4) &>> 3, -16, 15), f2 = clamp((step &+ 3) &>> 3, -16, 15)
                    let f3 = (f1 &+ 1) &>> 1
                    e.p1.replace(with: pixel(e.p1 &+ f3), where: wide)
                    p0.replace(with: pixel(e.p0 &+ f2), where: wide)
                    q0.replace(with: pixel(e.q0 &- f1), where: wide)
                    e.q1.replace(with: pixel(e.q1 &- f3), where: wide)
                }
            }
            e.p0 = p0
            e.q0 = q0
        }

        // MARK: Moving pixels between planes and lanes

        @inline(__always) private static func load(_ p: UnsafePointer<UInt8>) -> Lanes {
            // 16 bytes at p are inside the plane cache (the caller filters whole macroblock rows).
            Lanes(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
        }
        @inline(__always) private static func store(_ v: Lanes, _ p: UnsafeMutablePointer<UInt8>) {
            UnsafeMutableRawPointer(p).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: v), as: SIMD16<UInt8>.self)
        }
        @inline(__always) private static func load(_ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>) -> Lanes {
            // 8 bytes of each chroma plane at u and v are inside the cache.
            let pair = SIMD2<UInt64>(UnsafeRawPointer(u).loadUnaligned(as: UInt64.self),
                                     UnsafeRawPointer(v).loadUnaligned(as: UInt64.self))
            return Lanes(truncatingIfNeeded: unsafeBitCast(pair, to: SIMD16<UInt8>.self))
        }
        @inline(__always) private static func store(_ lanes: Lanes, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>) {
            let pair = unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: lanes), to: SIMD2<UInt64>.self)
            UnsafeMutableRawPointer(u).storeBytes(of: pair[0], as: UInt64.self)
            UnsafeMutableRawPointer(v).storeBytes(of: pair[1], as: UInt64.self)
        }

        /// The 16 luma pixels on each side of a horizontal edge above `p` (rows `stride` apart).
        @inline(__always)
        static func loadHorizontal(_ p: UnsafeMutablePointer<UInt8>, stride s: Int, wide: Bool) -> Edge {
            var e = Edge()
            if wide { e.p3 = load(p - 4 &* s); e.p2 = load(p - 3 &* s); e.q2 = load(p + 2 &* s); e.q3 = load(p + 3 &* s) }
            e.p1 = load(p - 2 &* s); e.p0 = load(p - s); e.q0 = load(p); e.q1 = load(p + s)
            return e
        }

        @inline(__always)
        static func storeHorizontal(_ e: Edge, _ p: UnsafeMutablePointer<UInt8>, stride s: Int, wide: Bool) {
            if wide { store(e.p2, p - 3 &* s); store(e.q2, p + 2 &* s) }
            store(e.p1, p - 2 &* s); store(e.p0, p - s); store(e.q0, p); store(e.q1, p + s)
        }

        /// The chroma pixels of both planes across a horizontal edge (U in lanes 0–7, V in 8–15).
        @inline(__always)
        static func loadHorizontal(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int) -> Edge {
            var e = Edge()
            e.p3 = load(u - 4 &* s, v - 4 &* s); e.p2 = load(u - 3 &* s, v - 3 &* s)
            e.p1 = load(u - 2 &* s, v - 2 &* s); e.p0 = load(u - s, v - s)
            e.q0 = load(u, v); e.q1 = load(u + s, v + s)
            e.q2 = load(u + 2 &* s, v + 2 &* s); e.q3 = load(u + 3 &* s, v + 3 &* s)
            return e
        }

        @inline(__always)
        static func storeHorizontal(_ e: Edge, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int) {
            store(e.p2, u - 3 &* s, v - 3 &* s); store(e.p1, u - 2 &* s, v - 2 &* s)
            store(e.p0, u - s, v - s); store(e.q0, u, v)
            store(e.q1, u + s, v + s); store(e.q2, u + 2 &* s, v + 2 &* s)
        }

        /// Two 8×8 byte blocks side by side: row `i` of the first block in lane 0
        /// of element `i`, of the second in lane 1 (each row a little-endian word).
        typealias Block = (SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>,
                           SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>)

        /// Transposes both 8×8 byte blocks (rows become columns) by exchanging
        /// bytes, then byte pairs, then quads between rows 1, 2 and 4 apart, both
        /// blocks at once in 64-bit lanes. It is its own inverse. Kept out of line:
        /// inlined into the filter, the compiler turns it into scalar code on each
        /// lane; on its own it is 107 SSE2 instructions.
        @inline(never)
        static func transpose(_ b: Block) -> Block {
            var (r0, r1, r2, r3, r4, r5, r6, r7) = b
            @inline(__always) func exchange(_ a: inout SIMD2<UInt64>, _ c: inout SIMD2<UInt64>, _ shift: UInt64, _ mask: UInt64) {
                let t = ((a &>> shift) ^ c) & SIMD2(repeating: mask)
                c ^= t
                a ^= t &<< shift
            }
            let m1: UInt64 = 0x00ff_00ff_00ff_00ff, m2: UInt64 = 0x0000_ffff_0000_ffff, m4: UInt64 = 0x0000_0000_ffff_ffff
            exchange(&r0, &r1, 8, m1); exchange(&r2, &r3, 8, m1); exchange(&r4, &r5, 8, m1); exchange(&r6, &r7, 8, m1)
            exchange(&r0, &r2, 16, m2); exchange(&r1, &r3, 16, m2); exchange(&r4, &r6, 16, m2); exchange(&r5, &r7, 16, m2)
            exchange(&r0, &r4, 32, m4); exchange(&r1, &r5, 32, m4); exchange(&r2, &r6, 32, m4); exchange(&r3, &r7, 32, m4)
            return (r0, r1, r2, r3, r4, r5, r6, r7)
        }

        /// Rows 0–7 from `upper` and from `lower`, each starting 4 pixels left of the edge.
        @inline(__always)
        private static func loadBlock(_ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>,
                                      stride s: Int) -> Block {
            // Each of the 8 rows has 4 readable pixels left of the edge and 4 from it on
            // (every filtered edge is at least 4 pixels inside the row).
            @inline(__always) func row(_ i: Int) -> SIMD2<UInt64> {
                SIMD2(UnsafeRawPointer(upper + (i &* s &- 4)).loadUnaligned(as: UInt64.self),
                      UnsafeRawPointer(lower + (i &* s &- 4)).loadUnaligned(as: UInt64.self))
            }
            return (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        }

        @inline(__always)
        private static func storeBlock(_ b: Block, _ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>,
                                       stride s: Int) {
            @inline(__always) func row(_ i: Int, _ v: SIMD2<UInt64>) {
                UnsafeMutableRawPointer(upper + (i &* s &- 4)).storeBytes(of: v[0], as: UInt64.self)
                UnsafeMutableRawPointer(lower + (i &* s &- 4)).storeBytes(of: v[1], as: UInt64.self)
            }
            row(0, b.0); row(1, b.1); row(2, b.2); row(3, b.3); row(4, b.4); row(5, b.5); row(6, b.6); row(7, b.7)
        }

        @inline(__always)
        private static func lanes(_ words: SIMD2<UInt64>) -> Lanes {
            Lanes(truncatingIfNeeded: unsafeBitCast(words, to: SIMD16<UInt8>.self))
        }

        @inline(__always)
        private static func words(_ lanes: Lanes) -> SIMD2<UInt64> {
            unsafeBitCast(SIMD16<UInt8>(truncatingIfNeeded: lanes), to: SIMD2<UInt64>.self)
        }

        /// The pixels across a vertical edge of 16 rows, row `i` in lane `i`:
        /// rows 0–7 start at `upper`, rows 8–15 at `lower` (the next 8 luma
        /// rows, or the V plane beside U), `stride` apart.
        @inline(__always)
        static func loadVertical(_ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>,
                                 stride s: Int) -> Edge {
            let t = transpose(loadBlock(upper, lower, stride: s))
            var e = Edge()
            e.p3 = lanes(t.0); e.p2 = lanes(t.1); e.p1 = lanes(t.2); e.p0 = lanes(t.3)
            e.q0 = lanes(t.4); e.q1 = lanes(t.5); e.q2 = lanes(t.6); e.q3 = lanes(t.7)
            return e
        }

        /// Writes an edge read by ``loadVertical(_:_:stride:)`` back (all eight pixels per row).
        @inline(__always)
        static func storeVertical(_ e: Edge, _ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>,
                                  stride s: Int) {
            let t = (words(e.p3), words(e.p2), words(e.p1), words(e.p0), words(e.q0), words(e.q1), words(e.q2), words(e.q3))
            storeBlock(transpose(t), upper, lower, stride: s)
        }
    }
}
