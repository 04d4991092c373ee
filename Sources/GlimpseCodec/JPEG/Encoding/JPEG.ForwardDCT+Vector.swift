extension JPEG.ForwardDCT {
    typealias Lanes = SIMD8<Int32>
    typealias Block = (Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes, Lanes)

    /// Transforms and quantises the 8 × 8 samples at `samples` (rows `stride`
    /// bytes apart) into `output`: the same arithmetic as ``transform(_:)`` and
    /// ``quantize(_:divisors:into:)``, eight rows (then eight columns) at a time.
    /// Rows are transformed first, as libjpeg does, so rounding matches.
    @inline(__always)
    static func transformBlock(_ samples: UnsafePointer<UInt8>, stride: Int, divisors: UnsafePointer<UInt32>,
                               into output: UnsafeMutablePointer<Int16>) {
        @inline(__always) func row(_ i: Int) -> Lanes {
            // Eight samples of row i; the caller's plane holds 8 rows of `stride` bytes here.
            let p = samples + i &* stride
            return Lanes(Int32(p[0]), Int32(p[1]), Int32(p[2]), Int32(p[3]),
                         Int32(p[4]), Int32(p[5]), Int32(p[6]), Int32(p[7])) &- 128
        }
        let rows: Block = (row(0), row(1), row(2), row(3), row(4), row(5), row(6), row(7))
        // Lanes = rows: vector j holds column j of every row.
        let firstPass = pass(transpose(rows), first: true)
        // Lanes = columns: vector i holds row i of the intermediate result.
        let result = pass(transpose(firstPass), first: false)
        quantize(result.0, divisors, 0, output)
        quantize(result.1, divisors, 1, output)
        quantize(result.2, divisors, 2, output)
        quantize(result.3, divisors, 3, output)
        quantize(result.4, divisors, 4, output)
        quantize(result.5, divisors, 5, output)
        quantize(result.6, divisors, 6, output)
        quantize(result.7, divisors, 7, output)
    }

    @inline(__always)
    private static func quantize(_ values: Lanes, _ divisors: UnsafePointer<UInt32>, _ row: Int,
                                 _ output: UnsafeMutablePointer<Int16>) {
        let base = row &* 8
        @inline(__always) func load(_ offset: Int) -> SIMD8<UInt32> {
            UnsafeRawPointer(divisors + (offset &+ base)).loadUnaligned(as: SIMD8<UInt32>.self)
        }
        let sign = values &>> 31
        let magnitude = unsafeBitCast((values ^ sign) &- sign, to: SIMD8<UInt32>.self)
        // |value| < 2^15, correction < 2^11, reciprocal < 2^16: no lane overflows 32 bits.
        let quotient = ((magnitude &+ load(64)) &* load(0)) &>> load(128)
        let signed: Lanes = (unsafeBitCast(quotient, to: Lanes.self) ^ sign) &- sign
        let out = output + base
        for i in 0..<8 { out[i] = Int16(truncatingIfNeeded: signed[i]) }
    }

    @inline(__always)
    private static func transpose(_ m: Block) -> Block {
        @inline(__always) func column(_ j: Int) -> Lanes {
            Lanes(m.0[j], m.1[j], m.2[j], m.3[j], m.4[j], m.5[j], m.6[j], m.7[j])
        }
        return (column(0), column(1), column(2), column(3), column(4), column(5), column(6), column(7))
    }

    @inline(__always)
    private static func descale(_ x: Lanes, _ n: Int32) -> Lanes {
        (x &+ Lanes(repeating: 1 &<< (n &- 1))) &>> Lanes(repeating: n)
    }

    /// One 8-point pass of `jfdctint.c` on eight vectors at once.
    @inline(__always)
    private static func pass(_ d: Block, first: Bool) -> Block {
        let tmp0 = d.0 &+ d.7, tmp7 = d.0 &- d.7
        let tmp1 = d.1 &+ d.6, tmp6 = d.1 &- d.6
        let tmp2 = d.2 &+ d.5, tmp5 = d.2 &- d.5
        let tmp3 = d.3 &+ d.4, tmp4 = d.3 &- d.4
        let tmp10 = tmp0 &+ tmp3, tmp13 = tmp0 &- tmp3
        let tmp11 = tmp1 &+ tmp2, tmp12 = tmp1 &- tmp2
        let oddBits = first ? constBits &- pass1Bits : constBits &+ pass1Bits
        let out0: Lanes, out4: Lanes
        if first {
            out0 = (tmp10 &+ tmp11) &<< Lanes(repeating: pass1Bits)
            out4 = (tmp10 &- tmp11) &<< Lanes(repeating: pass1Bits)
        } else {
            out0 = descale(tmp10 &+ tmp11, pass1Bits)
            out4 = descale(tmp10 &- tmp11, pass1Bits)
        }
        let z1e = (tmp12 &+ tmp13) &* fix0_541196100
        let out2 = descale(z1e &+ tmp13 &* fix0_765366865, oddBits)
        let out6 = descale(z1e &- tmp12 &* fix1_847759065, oddBits)
        let z5 = (tmp4 &+ tmp6 &+ tmp5 &+ tmp7) &* fix1_175875602
        let t4 = tmp4 &* fix0_298631336, t5 = tmp5 &* fix2_053119869
        let t6 = tmp6 &* fix3_072711026, t7 = tmp7 &* fix1_501321110
        let z1 = (tmp4 &+ tmp7) &* -fix0_899976223
        let z2 = (tmp5 &+ tmp6) &* -fix2_562915447
        let z3 = (tmp4 &+ tmp6) &* -fix1_961570560 &+ z5
        let z4 = (tmp5 &+ tmp7) &* -fix0_390180644 &+ z5
        let out7 = descale(t4 &+ z1 &+ z3, oddBits)
        let out5 = descale(t5 &+ z2 &+ z4, oddBits)
        let out3 = descale(t6 &+ z2 &+ z3, oddBits)
        let out1 = descale(t7 &+ z1 &+ z4, oddBits)
        return (out0, out1, out2, out3, out4, out5, out6, out7)
    }
}
