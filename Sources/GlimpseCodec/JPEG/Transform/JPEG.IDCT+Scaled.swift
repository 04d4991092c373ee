extension JPEG.IDCT {
    // Extra constants of the reduced-size transforms (libjpeg's jidctred.c arithmetic).
    static let fix0_211164243 = 1730
    static let fix0_509795579 = 4176
    static let fix0_601344887 = 4926
    static let fix0_720959822 = 5906
    static let fix0_850430095 = 6967
    static let fix1_061594337 = 8697
    static let fix1_272758580 = 10426
    static let fix1_451774981 = 11893
    static let fix2_172734803 = 17799
    static let fix3_624509785 = 29692

    /// Inverse DCT straight to a 4x4 block: the 1/2-scale output of an 8x8 block
    /// (DCT-domain downscaling), ignoring the highest frequencies.
    static func islow4x4(_ block: UnsafePointer<Int32>, _ quant: UnsafePointer<Int32>,
                         _ out: UnsafeMutablePointer<UInt8>, _ stride: Int,
                         _ workspace: UnsafeMutablePointer<Int32>) {
        for col in 0..<8 where col != 4 {
            let i = block + col, q = quant + col, w = workspace + col
            if i[8] == 0 && i[16] == 0 && i[24] == 0 && i[40] == 0 && i[48] == 0 && i[56] == 0 {
                let dc = Int32(truncatingIfNeeded: Int((i[0]) &* (q[0])) &<< pass1Bits)
                w[0] = dc; w[8] = dc; w[16] = dc; w[24] = dc
                continue
            }
            var tmp0 = Int((i[0]) &* (q[0])) &<< (constBits + 1)
            let z2e = Int((i[16]) &* (q[16])), z3e = Int((i[48]) &* (q[48]))
            var tmp2 = z2e &* fix1_847759065 &+ z3e &* -fix0_765366865
            let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
            let z1 = Int((i[56]) &* (q[56])), z2 = Int((i[40]) &* (q[40]))
            let z3 = Int((i[24]) &* (q[24])), z4 = Int((i[8]) &* (q[8]))
            tmp0 = z1 &* -fix0_211164243 &+ z2 &* fix1_451774981 &+ z3 &* -fix2_172734803 &+ z4 &* fix1_061594337
            tmp2 = z1 &* -fix0_509795579 &+ z2 &* -fix0_601344887 &+ z3 &* fix0_899976223 &+ z4 &* fix2_562915447
            let shift = constBits - pass1Bits + 1, round = 1 << (shift - 1)
            w[0] = Int32(truncatingIfNeeded: (tmp10 &+ tmp2 &+ round) &>> shift)
            w[24] = Int32(truncatingIfNeeded: (tmp10 &- tmp2 &+ round) &>> shift)
            w[8] = Int32(truncatingIfNeeded: (tmp12 &+ tmp0 &+ round) &>> shift)
            w[16] = Int32(truncatingIfNeeded: (tmp12 &- tmp0 &+ round) &>> shift)
        }
        let shift = constBits + pass1Bits + 3 + 1, round = 1 << (shift - 1)
        for row in 0..<4 {
            let w = workspace + row * 8, o = out + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                let v = rangeLimit((Int(w[0]) &+ 16) &>> 5)
                o[0] = v; o[1] = v; o[2] = v; o[3] = v
                continue
            }
            var tmp0 = Int(w[0]) &<< (constBits + 1)
            var tmp2 = Int(w[2]) &* fix1_847759065 &+ Int(w[6]) &* -fix0_765366865
            let tmp10 = tmp0 &+ tmp2, tmp12 = tmp0 &- tmp2
            let z1 = Int(w[7]), z2 = Int(w[5]), z3 = Int(w[3]), z4 = Int(w[1])
            tmp0 = z1 &* -fix0_211164243 &+ z2 &* fix1_451774981 &+ z3 &* -fix2_172734803 &+ z4 &* fix1_061594337
            tmp2 = z1 &* -fix0_509795579 &+ z2 &* -fix0_601344887 &+ z3 &* fix0_899976223 &+ z4 &* fix2_562915447
            o[0] = rangeLimit((tmp10 &+ tmp2 &+ round) &>> shift)
            o[3] = rangeLimit((tmp10 &- tmp2 &+ round) &>> shift)
            o[1] = rangeLimit((tmp12 &+ tmp0 &+ round) &>> shift)
            o[2] = rangeLimit((tmp12 &- tmp0 &+ round) &>> shift)
        }
    }

    /// Inverse DCT straight to a 2x2 block (1/4 scale).
    static func islow2x2(_ block: UnsafePointer<Int32>, _ quant: UnsafePointer<Int32>,
                         _ out: UnsafeMutablePointer<UInt8>, _ stride: Int,
                         _ workspace: UnsafeMutablePointer<Int32>) {
        for col in 0..<8 where col == 0 || col & 1 == 1 {
            let i = block + col, q = quant + col, w = workspace + col
            if i[8] == 0 && i[24] == 0 && i[40] == 0 && i[56] == 0 {
                let dc = Int32(truncatingIfNeeded: Int((i[0]) &* (q[0])) &<< pass1Bits)
                w[0] = dc; w[8] = dc
                continue
            }
            let tmp10 = Int((i[0]) &* (q[0])) &<< (constBits + 2)
            let tmp0 = Int((i[56]) &* (q[56])) &* -fix0_720959822
                &+ Int((i[40]) &* (q[40])) &* fix0_850430095
                &+ Int((i[24]) &* (q[24])) &* -fix1_272758580
                &+ Int((i[8]) &* (q[8])) &* fix3_624509785
            let shift = constBits - pass1Bits + 2, round = 1 << (shift - 1)
            w[0] = Int32(truncatingIfNeeded: (tmp10 &+ tmp0 &+ round) &>> shift)
            w[8] = Int32(truncatingIfNeeded: (tmp10 &- tmp0 &+ round) &>> shift)
        }
        let shift = constBits + pass1Bits + 3 + 2, round = 1 << (shift - 1)
        for row in 0..<2 {
            let w = workspace + row * 8, o = out + row * stride
            if w[1] == 0 && w[3] == 0 && w[5] == 0 && w[7] == 0 {
                let v = rangeLimit((Int(w[0]) &+ 16) &>> 5)
                o[0] = v; o[1] = v
                continue
            }
            let tmp10 = Int(w[0]) &<< (constBits + 2)
            let tmp0 = Int(w[7]) &* -fix0_720959822 &+ Int(w[5]) &* fix0_850430095
                &+ Int(w[3]) &* -fix1_272758580 &+ Int(w[1]) &* fix3_624509785
            o[0] = rangeLimit((tmp10 &+ tmp0 &+ round) &>> shift)
            o[1] = rangeLimit((tmp10 &- tmp0 &+ round) &>> shift)
        }
    }

    /// The 1x1 "transform" (1/8 scale): the block average, DC / 8.
    @inline(__always)
    static func islow1x1(_ block: UnsafePointer<Int32>, _ quant: UnsafePointer<Int32>,
                         _ out: UnsafeMutablePointer<UInt8>) {
        let dc = Int(block[0] &* quant[0])
        out[0] = rangeLimit((dc &+ 4) &>> 3)
    }

    /// Transforms one block to a `size`×`size` block of samples (size 4, 2 or 1;
    /// full-size blocks go through ``islow8x8(_:_:_:_:)``).
    @inline(__always)
    static func transform(size: Int, _ block: UnsafePointer<Int32>, _ quant: UnsafePointer<Int32>,
                          _ out: UnsafeMutablePointer<UInt8>, _ stride: Int,
                          _ workspace: UnsafeMutablePointer<Int32>) {
        switch size {
        case 4: islow4x4(block, quant, out, stride, workspace)
        case 2: islow2x2(block, quant, out, stride, workspace)
        default: islow1x1(block, quant, out)
        }
    }

    /// Fills a `size`×`size` block with one value (DC-only blocks).
    @inline(__always)
    static func fill(size: Int, _ value: UInt8, _ out: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        for row in 0..<size {
            (out + row * stride).update(repeating: value, count: size)
        }
    }
}

extension JPEG.IDCT {
    /// Transforms a stored (16-bit) block, taking the shortcut for blocks whose
    /// AC coefficients are all zero. `scratch` holds 64 `Int32`s.
    @inline(__always)
    static func transformBlock(_ block: UnsafePointer<Int16>, quant: UnsafePointer<Int32>, quant16: UnsafePointer<Int16>, size: Int,
                               out: UnsafeMutablePointer<UInt8>, stride: Int,
                               workspace: UnsafeMutablePointer<Int32>, scratch: UnsafeMutablePointer<Int32>) {
        let raw = UnsafeRawPointer(block)
        var low = raw.loadUnaligned(as: SIMD32<Int16>.self)
        let high = raw.loadUnaligned(fromByteOffset: 64, as: SIMD32<Int16>.self)
        low[0] = 0
        if low == SIMD32<Int16>() && high == SIMD32<Int16>() {
            fill(size: size, dcOnlyValue(Int32(block[0]), quant[0], size: size), out, stride)
        } else if size == 8 {
            islow8x8(block, quant16, out, stride)
        } else {
            for k in 0..<64 { scratch[k] = Int32(block[k]) }
            transform(size: size, scratch, quant, out, stride, workspace)
        }
    }
}
