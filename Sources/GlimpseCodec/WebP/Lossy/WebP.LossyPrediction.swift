/// Intra predictors (RFC 6386 §12) on the decoder's work area, whose rows are
/// ``stride`` bytes apart and which holds the row above and the column to the
/// left of every block (127 above the frame, 129 left of it, as RFC 6386 §12.2
/// specifies; libwebp's `dsp/dec.c` predictors behave the same way).
///
/// Every function writes the block at `p`; the caller guarantees that `p`
/// lies inside the work area with one row above, one column left and, for
/// 4×4 blocks, four pixels above-right readable (the work area's layout).
extension WebP {
    enum LossyPrediction {
        /// Row pitch of the work area (libwebp's `BPS`).
        static let stride = 32

        /// Modes in the order the bitstream trees produce them (libwebp's numbering).
        static let dc = 0, tm = 1, ve = 2, he = 3, rd = 4, vr = 5, ld = 6, vl = 7, hd = 8, hu = 9

        @inline(__always)
        private static func avg3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: (Int(a) &+ 2 &* Int(b) &+ Int(c) &+ 2) >> 2)
        }

        @inline(__always)
        private static func avg2(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: (Int(a) &+ Int(b) &+ 1) >> 1)
        }

        /// Sets a `size`×`size` block (4, 8 or 16) to `value` in word stores
        /// (a byte fill of a variable count is a `memset` call per row).
        @inline(__always)
        private static func fill(_ p: UnsafeMutablePointer<UInt8>, size: Int, value: UInt8) {
            for y in 0..<size { fillRow(p + y &* stride, size: size, value: value) }
        }

        @inline(__always)
        private static func fillRow(_ row: UnsafeMutablePointer<UInt8>, size: Int, value: UInt8) {
            let word = UInt64(value) &* 0x0101_0101_0101_0101
            // The block's `size` bytes at `row` are inside the work area.
            let raw = UnsafeMutableRawPointer(row)
            if size == 4 {
                raw.storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
            } else {
                raw.storeBytes(of: word, as: UInt64.self)
                if size == 16 { raw.storeBytes(of: word, toByteOffset: 8, as: UInt64.self) }
            }
        }

        /// The sum of the eight bytes at `p` (SWAR: pairs, then a multiply adds the four 16-bit sums).
        @inline(__always)
        private static func sum8(_ p: UnsafePointer<UInt8>) -> Int {
            let x = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
            let pairs = (x & 0x00ff_00ff_00ff_00ff) &+ ((x &>> 8) & 0x00ff_00ff_00ff_00ff)
            return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) &>> 48)
        }

        /// TrueMotion: above + left − above-left, clamped (RFC 6386 §12.2 `TM_PRED`).
        @inline(__always)
        static func trueMotion(_ p: UnsafeMutablePointer<UInt8>, size: Int) {
            let top = p - stride
            let corner = Int(top[-1])
            for y in 0..<size {
                let row = p + y &* stride
                let delta = Int(row[-1]) &- corner
                for x in 0..<size {
                    let v = Int(top[x]) &+ delta
                    row[x] = UInt8(truncatingIfNeeded: v < 0 ? 0 : v > 255 ? 255 : v)
                }
            }
        }

        static func vertical(_ p: UnsafeMutablePointer<UInt8>, size: Int) {
            for y in 0..<size { (p + y &* stride).update(from: p - stride, count: size) }
        }

        static func horizontal(_ p: UnsafeMutablePointer<UInt8>, size: Int) {
            for y in 0..<size { fillRow(p + y &* stride, size: size, value: p[y &* stride &- 1]) }
        }

        /// DC prediction of a 16×16 or 8×8 block, with the edge variants libwebp
        /// selects when the block touches the top or left border (RFC 6386 §12.2).
        static func dcPrediction(_ p: UnsafeMutablePointer<UInt8>, size: Int, hasTop: Bool, hasLeft: Bool) {
            let shift = size == 16 ? 4 : 3
            var sum = 0
            if hasTop { sum = size == 16 ? sum8(p - stride) &+ sum8(p - stride + 8) : sum8(p - stride) }
            if hasLeft { for i in 0..<size { sum &+= Int(p[i &* stride &- 1]) } }
            let value: Int
            switch (hasTop, hasLeft) {
            case (true, true): value = (sum &+ size) >> (shift &+ 1)
            case (false, false): value = 0x80
            default: value = (sum &+ (size >> 1)) >> shift
            }
            fill(p, size: size, value: UInt8(truncatingIfNeeded: value))
        }

        /// A 16×16 luma or 8×8 chroma prediction (`mode` is dc, tm, ve or he).
        static func predictBlock(_ p: UnsafeMutablePointer<UInt8>, size: Int, mode: Int, hasTop: Bool, hasLeft: Bool) {
            switch mode {
            case tm: trueMotion(p, size: size)
            case ve: vertical(p, size: size)
            case he: horizontal(p, size: size)
            default: dcPrediction(p, size: size, hasTop: hasTop, hasLeft: hasLeft)
            }
        }

        /// One 4×4 luma sub-block prediction (RFC 6386 §12.3).
        static func predict4x4(_ p: UnsafeMutablePointer<UInt8>, mode: Int) {
            let s = stride
            @inline(__always) func put(_ x: Int, _ y: Int, _ v: UInt8) { p[x &+ y &* s] = v }
            let top = p - s
            switch mode {
            case dc:
                var sum = 4
                for i in 0..<4 { sum &+= Int(top[i]) &+ Int(p[i &* s &- 1]) }
                fill(p, size: 4, value: UInt8(truncatingIfNeeded: sum >> 3))
            case tm:
                trueMotion(p, size: 4)
            case ve:
                let v0 = avg3(top[-1], top[0], top[1]), v1 = avg3(top[0], top[1], top[2])
                let v2 = avg3(top[1], top[2], top[3]), v3 = avg3(top[2], top[3], top[4])
                for y in 0..<4 { put(0, y, v0); put(1, y, v1); put(2, y, v2); put(3, y, v3) }
            case he:
                let a = top[-1], b = p[-1], c = p[s &- 1], d = p[2 &* s &- 1], e = p[3 &* s &- 1]
                (p).update(repeating: avg3(a, b, c), count: 4)
                (p + s).update(repeating: avg3(b, c, d), count: 4)
                (p + 2 &* s).update(repeating: avg3(c, d, e), count: 4)
                (p + 3 &* s).update(repeating: avg3(d, e, e), count: 4)
            case rd:
                let i = p[-1], j = p[s &- 1], k = p[2 &* s &- 1], l = p[3 &* s &- 1]
                let x = top[-1], a = top[0], b = top[1], c = top[2], d = top[3]
                put(0, 3, avg3(j, k, l))
                let ijk = avg3(i, j, k); put(1, 3, ijk); put(0, 2, ijk)
                let xij = avg3(x, i, j); put(2, 3, xij); put(1, 2, xij); put(0, 1, xij)
                let axi = avg3(a, x, i); put(3, 3, axi); put(2, 2, axi); put(1, 1, axi); put(0, 0, axi)
                let bax = avg3(b, a, x); put(3, 2, bax); put(2, 1, bax); put(1, 0, bax)
                let cba = avg3(c, b, a); put(3, 1, cba); put(2, 0, cba)
                put(3, 0, avg3(d, c, b))
            case ld:
                let a = top[0], b = top[1], c = top[2], d = top[3], e = top[4], f = top[5], g = top[6], h = top[7]
                put(0, 0, avg3(a, b, c))
                let bcd = avg3(b, c, d); put(1, 0, bcd); put(0, 1, bcd)
                let cde = avg3(c, d, e); put(2, 0, cde); put(1, 1, cde); put(0, 2, cde)
                let def = avg3(d, e, f); put(3, 0, def); put(2, 1, def); put(1, 2, def); put(0, 3, def)
                let efg = avg3(e, f, g); put(3, 1, efg); put(2, 2, efg); put(1, 3, efg)
                let fgh = avg3(f, g, h); put(3, 2, fgh); put(2, 3, fgh)
                put(3, 3, avg3(g, h, h))
            case vr:
                let i = p[-1], j = p[s &- 1], k = p[2 &* s &- 1]
                let x = top[-1], a = top[0], b = top[1], c = top[2], d = top[3]
                let xa = avg2(x, a); put(0, 0, xa); put(1, 2, xa)
                let ab = avg2(a, b); put(1, 0, ab); put(2, 2, ab)
                let bc = avg2(b, c); put(2, 0, bc); put(3, 2, bc)
                put(3, 0, avg2(c, d))
                put(0, 3, avg3(k, j, i))
                put(0, 2, avg3(j, i, x))
                let ixa = avg3(i, x, a); put(0, 1, ixa); put(1, 3, ixa)
                let xab = avg3(x, a, b); put(1, 1, xab); put(2, 3, xab)
                let abc = avg3(a, b, c); put(2, 1, abc); put(3, 3, abc)
                put(3, 1, avg3(b, c, d))
            case vl:
                let a = top[0], b = top[1], c = top[2], d = top[3], e = top[4], f = top[5], g = top[6], h = top[7]
                put(0, 0, avg2(a, b))
                let bc = avg2(b, c); put(1, 0, bc); put(0, 2, bc)
                let cd = avg2(c, d); put(2, 0, cd); put(1, 2, cd)
                let de = avg2(d, e); put(3, 0, de); put(2, 2, de)
                put(0, 1, avg3(a, b, c))
                let bcd = avg3(b, c, d); put(1, 1, bcd); put(0, 3, bcd)
                let cde = avg3(c, d, e); put(2, 1, cde); put(1, 3, cde)
                let def = avg3(d, e, f); put(3, 1, def); put(2, 3, def)
                put(3, 2, avg3(e, f, g))
                put(3, 3, avg3(f, g, h))
            case hd:
                let i = p[-1], j = p[s &- 1], k = p[2 &* s &- 1], l = p[3 &* s &- 1]
                let x = top[-1], a = top[0], b = top[1], c = top[2]
                let ix = avg2(i, x); put(0, 0, ix); put(2, 1, ix)
                let ji = avg2(j, i); put(0, 1, ji); put(2, 2, ji)
                let kj = avg2(k, j); put(0, 2, kj); put(2, 3, kj)
                put(0, 3, avg2(l, k))
                put(3, 0, avg3(a, b, c))
                put(2, 0, avg3(x, a, b))
                let ixa = avg3(i, x, a); put(1, 0, ixa); put(3, 1, ixa)
                let jix = avg3(j, i, x); put(1, 1, jix); put(3, 2, jix)
                let kji = avg3(k, j, i); put(1, 2, kji); put(3, 3, kji)
                put(1, 3, avg3(l, k, j))
            default:  // hu
                let i = p[-1], j = p[s &- 1], k = p[2 &* s &- 1], l = p[3 &* s &- 1]
                put(0, 0, avg2(i, j))
                let jk = avg2(j, k); put(2, 0, jk); put(0, 1, jk)
                let kl = avg2(k, l); put(2, 1, kl); put(0, 2, kl)
                put(1, 0, avg3(i, j, k))
                let jkl = avg3(j, k, l); put(3, 0, jkl); put(1, 1, jkl)
                let kll = avg3(k, l, l); put(3, 1, kll); put(1, 2, kll)
                put(3, 2, l); put(2, 2, l); put(0, 3, l); put(1, 3, l); put(2, 3, l); put(3, 3, l)
            }
        }
    }
}
