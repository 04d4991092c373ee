extension JPEG.IDCT {
    typealias Lanes = SIMD8<Int32>

    /// One 8-point pass of the islow transform on eight lanes at once: the same
    /// constants, additions and rounding as the scalar version, with `shift`
    /// applied at the end (`descale` adds the rounding half first).
    @inline(__always)
    static func pass(_ x0: Lanes, _ x1: Lanes, _ x2: Lanes, _ x3: Lanes, _ x4: Lanes, _ x5: Lanes, _ x6: Lanes, _ x7: Lanes,
                     shift: Int32) -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
        // Even part.
        let z1 = (x2 &+ x6) &* Int32(fix0_541196100)
        let tmp2e = z1 &+ x6 &* Int32(-fix1_847759065)
        let tmp3e = z1 &+ x2 &* Int32(fix0_765366865)
        let tmp0e = (x0 &+ x4) &<< Int32(constBits)
        let tmp1e = (x0 &- x4) &<< Int32(constBits)
        let tmp10 = tmp0e &+ tmp3e, tmp13 = tmp0e &- tmp3e
        let tmp11 = tmp1e &+ tmp2e, tmp12 = tmp1e &- tmp2e
        // Odd part.
        let o1 = x7 &+ x1, o2 = x5 &+ x3, o3 = x7 &+ x3, o4 = x5 &+ x1
        let z5 = (o3 &+ o4) &* Int32(fix1_175875602)
        let t0 = x7 &* Int32(fix0_298631336)
        let t1 = x5 &* Int32(fix2_053119869)
        let t2 = x3 &* Int32(fix3_072711026)
        let t3 = x1 &* Int32(fix1_501321110)
        let m1 = o1 &* Int32(-fix0_899976223)
        let m2 = o2 &* Int32(-fix2_562915447)
        let m3 = o3 &* Int32(-fix1_961570560) &+ z5
        let m4 = o4 &* Int32(-fix0_390180644) &+ z5
        let tmp0 = t0 &+ m1 &+ m3
        let tmp1 = t1 &+ m2 &+ m4
        let tmp2 = t2 &+ m2 &+ m3
        let tmp3 = t3 &+ m1 &+ m4
        let round = Lanes(repeating: 1 &<< (shift &- 1))
        return ((tmp10 &+ tmp3 &+ round) &>> shift, (tmp11 &+ tmp2 &+ round) &>> shift,
                (tmp12 &+ tmp1 &+ round) &>> shift, (tmp13 &+ tmp0 &+ round) &>> shift,
                (tmp13 &- tmp0 &+ round) &>> shift, (tmp12 &- tmp1 &+ round) &>> shift,
                (tmp11 &- tmp2 &+ round) &>> shift, (tmp10 &- tmp3 &+ round) &>> shift)
    }

    /// One step of an 8x8 transpose held in eight row vectors: three steps
    /// (each taking even then odd lanes) transpose the matrix.
    @inline(__always)
    static func unshuffle(_ r: inout (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)) {
        r = (Lanes(lowHalf: r.0.evenHalf, highHalf: r.1.evenHalf), Lanes(lowHalf: r.2.evenHalf, highHalf: r.3.evenHalf),
             Lanes(lowHalf: r.4.evenHalf, highHalf: r.5.evenHalf), Lanes(lowHalf: r.6.evenHalf, highHalf: r.7.evenHalf),
             Lanes(lowHalf: r.0.oddHalf, highHalf: r.1.oddHalf), Lanes(lowHalf: r.2.oddHalf, highHalf: r.3.oddHalf),
             Lanes(lowHalf: r.4.oddHalf, highHalf: r.5.oddHalf), Lanes(lowHalf: r.6.oddHalf, highHalf: r.7.oddHalf))
    }

    /// The full 8x8 islow transform with both passes eight lanes wide:
    /// columns first (rows of the block in lanes), a transpose, then rows.
    /// Identical to ``islow8x8(_:_:_:_:_:)`` whenever the intermediate values
    /// fit in 32 bits, which holds for every coefficient a real encoder writes.
    @inline(__always)
    static func islow8x8SIMD(_ block: UnsafePointer<Int32>, _ quant: UnsafePointer<Int32>,
                             _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let b = UnsafeRawPointer(block), q = UnsafeRawPointer(quant)
        @inline(__always) func row(_ r: Int) -> Lanes {
            b.loadUnaligned(fromByteOffset: r &* 32, as: Lanes.self) &* q.loadUnaligned(fromByteOffset: r &* 32, as: Lanes.self)
        }
        var m = pass(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7),
                     shift: Int32(constBits - pass1Bits))
        unshuffle(&m); unshuffle(&m); unshuffle(&m)
        var o = pass(m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, shift: Int32(constBits + pass1Bits + 3))
        unshuffle(&o); unshuffle(&o); unshuffle(&o)
        @inline(__always) func store(_ v: Lanes, _ r: Int) {
            // libjpeg's range limit: wrap to 10 bits signed, centre, clamp.
            // Clamping with masks keeps it lane-wise (the generic clamp is not inlined).
            let wrapped = ((v & 1023) ^ 512) &- 384
            let positive = wrapped & ~(wrapped &>> 31)
            let over = positive &- 255
            let clamped = positive &- (over & ~(over &>> 31))
            let o = out + r &* stride
            for k in 0..<8 { o[k] = UInt8(truncatingIfNeeded: clamped[k]) }
        }
        store(o.0, 0); store(o.1, 1); store(o.2, 2); store(o.3, 3)
        store(o.4, 4); store(o.5, 5); store(o.6, 6); store(o.7, 7)
    }
}
