/// The loop filters of RFC 6386 §15 as libwebp applies them (`dsp/dec.c`),
/// one pixel position at a time: the readable reference that the vectorised
/// ``WebP/LossyEdgeFilter`` used by the decoder is tested against:
/// the simple filter on luma only, the normal filter with its high-variance
/// test, 4-tap inner edges and 6-tap macroblock edges, and libwebp's
/// thresholds (`2 * limit + 1` against `4|p0−q0| + |p1−q1|`).
///
/// `p` points at the first pixel after the edge (q0); `step` goes across the
/// edge and `along` along it. The caller guarantees that four pixels on each
/// side of every filtered position lie inside its plane cache.
extension WebP {
    enum LossyLoopFilter {
        @inline(__always) private static func clampSigned8(_ v: Int32) -> Int32 { v < -128 ? -128 : v > 127 ? 127 : v }
        @inline(__always) private static func clampSigned5(_ v: Int32) -> Int32 { v < -16 ? -16 : v > 15 ? 15 : v }
        @inline(__always) private static func clampPixel(_ v: Int32) -> UInt8 {
            UInt8(truncatingIfNeeded: v < 0 ? 0 : v > 255 ? 255 : v)
        }
        @inline(__always) private static func absolute(_ v: Int32) -> Int32 { v < 0 ? 0 &- v : v }

        @inline(__always)
        private static func filter2(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
            let p1 = Int32(p[-2 &* step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
            let a = 3 &* (q0 &- p0) &+ clampSigned8(p1 &- q1)
            let a1 = clampSigned5((a &+ 4) &>> 3)
            let a2 = clampSigned5((a &+ 3) &>> 3)
            p[-step] = clampPixel(p0 &+ a2)
            p[0] = clampPixel(q0 &- a1)
        }

        @inline(__always)
        private static func filter4(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
            let p1 = Int32(p[-2 &* step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
            let a = 3 &* (q0 &- p0)
            let a1 = clampSigned5((a &+ 4) &>> 3)
            let a2 = clampSigned5((a &+ 3) &>> 3)
            let a3 = (a1 &+ 1) &>> 1
            p[-2 &* step] = clampPixel(p1 &+ a3)
            p[-step] = clampPixel(p0 &+ a2)
            p[0] = clampPixel(q0 &- a1)
            p[step] = clampPixel(q1 &- a3)
        }

        @inline(__always)
        private static func filter6(_ p: UnsafeMutablePointer<UInt8>, _ step: Int) {
            let p2 = Int32(p[-3 &* step]), p1 = Int32(p[-2 &* step]), p0 = Int32(p[-step])
            let q0 = Int32(p[0]), q1 = Int32(p[step]), q2 = Int32(p[2 &* step])
            let a = clampSigned8(3 &* (q0 &- p0) &+ clampSigned8(p1 &- q1))
            let a1 = (27 &* a &+ 63) &>> 7
            let a2 = (18 &* a &+ 63) &>> 7
            let a3 = (9 &* a &+ 63) &>> 7
            p[-3 &* step] = clampPixel(p2 &+ a3)
            p[-2 &* step] = clampPixel(p1 &+ a2)
            p[-step] = clampPixel(p0 &+ a1)
            p[0] = clampPixel(q0 &- a1)
            p[step] = clampPixel(q1 &- a2)
            p[2 &* step] = clampPixel(q2 &- a3)
        }

        @inline(__always)
        private static func highEdgeVariance(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ threshold: Int32) -> Bool {
            let p1 = Int32(p[-2 &* step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
            return absolute(p1 &- p0) > threshold || absolute(q1 &- q0) > threshold
        }

        @inline(__always)
        private static func needsFilter(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ t: Int32) -> Bool {
            let p1 = Int32(p[-2 &* step]), p0 = Int32(p[-step]), q0 = Int32(p[0]), q1 = Int32(p[step])
            return 4 &* absolute(p0 &- q0) &+ absolute(p1 &- q1) <= t
        }

        @inline(__always)
        private static func needsFilter2(_ p: UnsafeMutablePointer<UInt8>, _ step: Int, _ t: Int32, _ it: Int32) -> Bool {
            let p3 = Int32(p[-4 &* step]), p2 = Int32(p[-3 &* step]), p1 = Int32(p[-2 &* step])
            let p0 = Int32(p[-step]), q0 = Int32(p[0])
            let q1 = Int32(p[step]), q2 = Int32(p[2 &* step]), q3 = Int32(p[3 &* step])
            if 4 &* absolute(p0 &- q0) &+ absolute(p1 &- q1) > t { return false }
            return absolute(p3 &- p2) <= it && absolute(p2 &- p1) <= it && absolute(p1 &- p0) <= it
                && absolute(q3 &- q2) <= it && absolute(q2 &- q1) <= it && absolute(q1 &- q0) <= it
        }

        /// The simple filter along one 16-pixel edge (RFC 6386 §15.2).
        static func simpleEdge(_ p: UnsafeMutablePointer<UInt8>, step: Int, along: Int, limit: Int32) {
            let t = 2 &* limit &+ 1
            for i in 0..<16 {
                let q = p + i &* along
                if needsFilter(q, step, t) { filter2(q, step) }
            }
        }

        /// The normal filter along one edge of `count` pixels; macroblock edges
        /// use the 6-tap filter, inner edges the 4-tap one (RFC 6386 §15.3).
        static func normalEdge(_ p: UnsafeMutablePointer<UInt8>, step: Int, along: Int, count: Int,
                               limit: Int32, interior: Int32, hevThreshold: Int32, macroblockEdge: Bool) {
            let t = 2 &* limit &+ 1
            for i in 0..<count {
                let q = p + i &* along
                guard needsFilter2(q, step, t, interior) else { continue }
                if highEdgeVariance(q, step, hevThreshold) {
                    filter2(q, step)
                } else if macroblockEdge {
                    filter6(q, step)
                } else {
                    filter4(q, step)
                }
            }
        }
    }
}
