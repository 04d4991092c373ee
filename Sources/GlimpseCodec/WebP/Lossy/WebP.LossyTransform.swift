/// The inverse transforms of RFC 6386 §14.3–14.4 in libwebp's exact integer
/// form (`TransformOne`, `TransformWHT`): the 4×4 DCT uses the multipliers
/// 20091/65536 + 1 and 35468/65536, rounds once by +4 >> 3 after the second
/// pass, and adds the residue to the prediction with clamping.
///
/// Coefficients are 16 `Int16` in raster order; `dst` is a 4×4 block of the
/// work area with rows ``WebP/LossyPrediction/stride`` apart. The caller
/// guarantees both are readable and writable for those extents.
extension WebP {
    enum LossyTransform {
        @inline(__always)
        private static func mul1(_ a: Int32) -> Int32 { ((a &* 20091) &>> 16) &+ a }
        @inline(__always)
        private static func mul2(_ a: Int32) -> Int32 { (a &* 35468) &>> 16 }

        @inline(__always)
        private static func store(_ dst: UnsafeMutablePointer<UInt8>, _ offset: Int, _ v: Int32) {
            let r = Int32(dst[offset]) &+ (v &>> 3)
            dst[offset] = UInt8(truncatingIfNeeded: r < 0 ? 0 : r > 255 ? 255 : r)
        }

        /// Full inverse DCT of one block, added to `dst`.
        static func inverseDCT(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
            let s = LossyPrediction.stride
            // Vertical pass; the 16 intermediates stay in registers-sized tuples.
            var tmp = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0),
                       Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
            withUnsafeMutableBytes(of: &tmp) { raw in
                // The tuple is 16 contiguous Int32 (homogeneous tuples are laid out like C arrays).
                let t = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
                for i in 0..<4 {
                    let i0 = Int32(input[i]), i4 = Int32(input[4 &+ i])
                    let i8 = Int32(input[8 &+ i]), i12 = Int32(input[12 &+ i])
                    let a = i0 &+ i8, b = i0 &- i8
                    let c = mul2(i4) &- mul1(i12), d = mul1(i4) &+ mul2(i12)
                    t[i &* 4] = a &+ d
                    t[i &* 4 &+ 1] = b &+ c
                    t[i &* 4 &+ 2] = b &- c
                    t[i &* 4 &+ 3] = a &- d
                }
                for i in 0..<4 {
                    let dc = t[i] &+ 4
                    let a = dc &+ t[8 &+ i], b = dc &- t[8 &+ i]
                    let c = mul2(t[4 &+ i]) &- mul1(t[12 &+ i]), d = mul1(t[4 &+ i]) &+ mul2(t[12 &+ i])
                    let row = dst + i &* s
                    store(row, 0, a &+ d)
                    store(row, 1, b &+ c)
                    store(row, 2, b &- c)
                    store(row, 3, a &- d)
                }
            }
        }

        /// The DCT of a block whose only non-zero coefficient is the DC.
        static func inverseDCTDCOnly(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
            let s = LossyPrediction.stride
            let dc = Int32(input[0]) &+ 4
            for y in 0..<4 { for x in 0..<4 { store(dst + y &* s, x, dc) } }
        }

        /// The DCT of a block whose non-zero coefficients are among the first
        /// three in zigzag order (raster 0, 1 and 4): the same result as
        /// ``inverseDCT(_:_:)`` with the zero terms left out.
        static func inverseDCTThreeCoefficients(_ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
            let s = LossyPrediction.stride
            let a = Int32(input[0]) &+ 4
            let in4 = Int32(input[4]), in1 = Int32(input[1])
            let c4 = mul2(in4), d4 = mul1(in4), c1 = mul2(in1), d1 = mul1(in1)
            let rows = (a &+ d4, a &+ c4, a &- c4, a &- d4)
            for (y, base) in [rows.0, rows.1, rows.2, rows.3].enumerated() {
                let row = dst + y &* s
                store(row, 0, base &+ d1)
                store(row, 1, base &+ c1)
                store(row, 2, base &- c1)
                store(row, 3, base &- d1)
            }
        }

        /// Applies the block transform chosen by a 2-bit code of libwebp's
        /// non-zero summary (3: full, 2: three coefficients, 1: DC only, 0: none).
        @inline(__always)
        static func apply(code: UInt32, _ input: UnsafePointer<Int16>, _ dst: UnsafeMutablePointer<UInt8>) {
            switch code {
            case 3: vectorDCT(input, dst)
            case 2: inverseDCTThreeCoefficients(input, dst)
            case 1: inverseDCTDCOnly(input, dst)
            default: break
            }
        }

        /// Inverse Walsh–Hadamard transform of the second-order block (RFC 6386
        /// §14.3): writes the DC of each of the 16 luma blocks, 16 values apart.
        static func inverseWHT(_ input: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
            // The 16 intermediate values live on the stack: the encoder calls this for every
            // 16×16 mode it tries and the decoder for every such macroblock, and an array here
            // was a heap allocation each time.
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 16) { tmp in
                tmp.initialize(repeating: 0)
                for i in 0..<4 {
                    let a0 = Int32(input[i]) &+ Int32(input[12 &+ i])
                    let a1 = Int32(input[4 &+ i]) &+ Int32(input[8 &+ i])
                    let a2 = Int32(input[4 &+ i]) &- Int32(input[8 &+ i])
                    let a3 = Int32(input[i]) &- Int32(input[12 &+ i])
                    tmp[i] = a0 &+ a1
                    tmp[8 &+ i] = a0 &- a1
                    tmp[4 &+ i] = a3 &+ a2
                    tmp[12 &+ i] = a3 &- a2
                }
                for i in 0..<4 {
                    let dc = tmp[i &* 4] &+ 3
                    let a0 = dc &+ tmp[i &* 4 &+ 3]
                    let a1 = tmp[i &* 4 &+ 1] &+ tmp[i &* 4 &+ 2]
                    let a2 = tmp[i &* 4 &+ 1] &- tmp[i &* 4 &+ 2]
                    let a3 = dc &- tmp[i &* 4 &+ 3]
                    let o = out + i &* 64
                    o[0] = Int16(truncatingIfNeeded: (a0 &+ a1) &>> 3)
                    o[16] = Int16(truncatingIfNeeded: (a3 &+ a2) &>> 3)
                    o[32] = Int16(truncatingIfNeeded: (a0 &- a1) &>> 3)
                    o[48] = Int16(truncatingIfNeeded: (a3 &- a2) &>> 3)
                }
            }
        }
    }
}
