extension JPEG.IDCT {
    typealias Lanes = SIMD8<Int32>

    /// One 8-point pass of the islow transform on eight lanes at once, then
    /// `(value + 2^(shift-1)) >> shift`.
    ///
    /// The factored form of jidctint.c is multiplied out into sums of products
    /// (e.g. tmp0 = −11363·x7 + 2260·x1 − 6436·x3 + 9633·x5): the same integers,
    /// since nothing is rounded before the final shift, but every product is now
    /// a 16-bit value times a 16-bit constant, which the compiler turns into
    /// `pmaddwd` instead of emulated 32-bit multiplies. Inputs are taken as
    /// 16-bit values, as libjpeg-turbo's SIMD code takes them.
    @inline(__always)
    static func pass(_ i0: Lanes, _ i1: Lanes, _ i2: Lanes, _ i3: Lanes, _ i4: Lanes, _ i5: Lanes, _ i6: Lanes, _ i7: Lanes,
                     shift: Int32) -> (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes) {
        @inline(__always) func narrow(_ v: Lanes) -> Lanes { (v &<< 16) &>> 16 }
        let x0 = narrow(i0), x1 = narrow(i1), x2 = narrow(i2), x3 = narrow(i3)
        let x4 = narrow(i4), x5 = narrow(i5), x6 = narrow(i6), x7 = narrow(i7)
        // Even part.
        let tmp2e = x2 &* 4433 &+ x6 &* -10704
        let tmp3e = x2 &* 10703 &+ x6 &* 4433
        let tmp0e = (x0 &+ x4) &<< Int32(constBits)
        let tmp1e = (x0 &- x4) &<< Int32(constBits)
        let tmp10 = tmp0e &+ tmp3e, tmp13 = tmp0e &- tmp3e
        let tmp11 = tmp1e &+ tmp2e, tmp12 = tmp1e &- tmp2e
        // Odd part.
        let tmp0 = x7 &* -11363 &+ x1 &* 2260 &+ x3 &* -6436 &+ x5 &* 9633
        let tmp1 = x5 &* 2261 &+ x3 &* -11362 &+ x1 &* 6437 &+ x7 &* 9633
        let tmp2 = x3 &* -2259 &+ x5 &* -11362 &+ x7 &* -6436 &+ x1 &* 9633
        let tmp3 = x1 &* 11363 &+ x7 &* 2260 &+ x5 &* 6437 &+ x3 &* 9633
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
        islow8x8SIMD(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7), out, stride)
    }

    /// The same transform reading the 16-bit coefficients of the progressive store.
    @inline(__always)
    static func islow8x8SIMD(_ block: UnsafePointer<Int16>, _ quant: UnsafePointer<Int32>,
                             _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        let b = UnsafeRawPointer(block), q = UnsafeRawPointer(quant)
        @inline(__always) func row(_ r: Int) -> Lanes {
            Lanes(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: r &* 16, as: SIMD8<Int16>.self))
                &* q.loadUnaligned(fromByteOffset: r &* 32, as: Lanes.self)
        }
        islow8x8SIMD(row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7), out, stride)
    }

    /// Both passes on dequantised rows.
    @inline(__always)
    static func islow8x8SIMD(_ r0: Lanes, _ r1: Lanes, _ r2: Lanes, _ r3: Lanes, _ r4: Lanes, _ r5: Lanes, _ r6: Lanes,
                             _ r7: Lanes, _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        var m = pass(r0, r1, r2, r3, r4, r5, r6, r7, shift: Int32(constBits - pass1Bits))
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
