extension AVIF {
    /// The inter prediction process (§7.11.3.1) as intra block copy uses it (use_intrabc 1):
    /// one reference, the frame being decoded (refIdx -1), the BILINEAR filter in both
    /// directions, no warp, OBMC or compound, so the prediction is the motion vector scaling
    /// process (§7.11.3.3) and the block inter prediction process (§7.11.3.4) followed by Clip1.
    /// Keeps the `intermediate` and `pred` arrays between blocks.
    struct IntraBlockCopy: Sendable {
        /// `intermediate[ r ][ c ]` at `r * 128 + c` (at most ( 128 + 8 ) rows of 128).
        var intermediate = [Int](repeating: 0, count: 136 * 128)
        /// `preds[ 0 ][ i ][ j ]` at `i * 128 + j`.
        var pred = [Int](repeating: 0, count: 128 * 128)

        init() {}

        /// What the process reads besides the block: the frame's sizes and the sampling.
        struct Frame: Sendable, Equatable {
            /// `FrameWidth`, `FrameHeight` (`RefUpscaledWidth[ -1 ]` is UpscaledWidth, equal to
            /// FrameWidth since intra block copy excludes super-resolution).
            var frameWidth: Int
            var frameHeight: Int
            /// `MiCols`, `MiRows`: step 11 of §7.11.3.1 extends the reference to them.
            var miCols: Int
            var miRows: Int

            init(frameWidth: Int, frameHeight: Int, miCols: Int, miRows: Int) {
                self.frameWidth = frameWidth
                self.frameHeight = frameHeight
                self.miCols = miCols
                self.miRows = miRows
            }
        }

        /// `Subpel_Filters[ BILINEAR ][ k ]`: 128 - 8k at tap 3 and 8k at tap 4 (the table's
        /// fourth set, a linear interpolation, computed rather than stored).
        @inline(__always)
        static func bilinearTap(_ k: Int, _ t: Int) -> Int {
            t == 3 ? 128 - 8 * k : (t == 4 ? 8 * k : 0)
        }

        /// §7.11.3.3, the motion vector scaling process for refIdx -1: startX, startY in
        /// 1/1024 sample, stepX, stepY. `mv` is Mvs[ candRow ][ candCol ][ 0 ] (row, column) in 1/8 luma sample.
        static func scaleMotionVector(plane: Int, x: Int, y: Int, mv: (row: Int, col: Int), subX: Int, subY: Int,
                                      _ f: Frame) -> (startX: Int, startY: Int, stepX: Int, stepY: Int) {
            typealias K = AV1Tables
            let scaleSubpelBits = 10
            let frameWidth = max(1, f.frameWidth), frameHeight = max(1, f.frameHeight)
            // RefUpscaledWidth[ -1 ] = FrameWidth, RefFrameHeight[ -1 ] = FrameHeight (step 9).
            let xScale = ((frameWidth << K.REF_SCALE_SHIFT) + (frameWidth / 2)) / frameWidth
            let yScale = ((frameHeight << K.REF_SCALE_SHIFT) + (frameHeight / 2)) / frameHeight
            let halfSample = 1 << (K.SUBPEL_BITS - 1)
            // Motion vectors are coded within ±2^14 (§5.11.32): the products stay far below 2^62.
            let origX = (x << K.SUBPEL_BITS) + ((2 * AV1Arithmetic.clip3(-(1 << 16), 1 << 16, mv.col)) >> subX) + halfSample
            let origY = (y << K.SUBPEL_BITS) + ((2 * AV1Arithmetic.clip3(-(1 << 16), 1 << 16, mv.row)) >> subY) + halfSample
            // Block positions are below 2^16 and the scales 2^14 (equal sizes): products below 2^36.
            let baseX = origX &* xScale &- (halfSample << K.REF_SCALE_SHIFT)
            let baseY = origY &* yScale &- (halfSample << K.REF_SCALE_SHIFT)
            let off = (1 << (scaleSubpelBits - K.SUBPEL_BITS)) / 2
            let startX = AV1Arithmetic.round2Signed(baseX, K.REF_SCALE_SHIFT + K.SUBPEL_BITS - scaleSubpelBits) + off
            let startY = AV1Arithmetic.round2Signed(baseY, K.REF_SCALE_SHIFT + K.SUBPEL_BITS - scaleSubpelBits) + off
            let stepX = AV1Arithmetic.round2Signed(xScale, K.REF_SCALE_SHIFT - scaleSubpelBits)
            let stepY = AV1Arithmetic.round2Signed(yScale, K.REF_SCALE_SHIFT - scaleSubpelBits)
            return (startX, startY, stepX, stepY)
        }

        /// Predicts the w × h block (at most 128 × 128) at (`x`, `y`) of `frame.planes[ plane ]`
        /// from the same frame displaced by `mv`, and writes it there (§7.11.3.1 with
        /// use_intrabc 1, isCompound 0).
        mutating func predict(frame: inout AV1Frame, plane: Int, x: Int, y: Int, w wIn: Int, h hIn: Int,
                              mv: (row: Int, col: Int), _ f: Frame) {
            typealias K = AV1Tables
            guard plane >= 0 && plane < frame.numPlanes else { return }
            let w = AV1Arithmetic.clip3(0, 128, wIn), h = AV1Arithmetic.clip3(0, 128, hIn)
            let bitDepth = frame.bitDepth
            let subX = plane > 0 ? frame.subsamplingX : 0
            let subY = plane > 0 ? frame.subsamplingY : 0
            // §7.11.3.2 with isCompound 0.
            let interRound0 = bitDepth == 12 ? 5 : 3
            let interRound1 = bitDepth == 12 ? 9 : 11
            let (startX, startY, stepX, stepY) = Self.scaleMotionVector(plane: plane, x: x, y: y, mv: mv,
                                                                        subX: subX, subY: subY, f)
            // Step 11: the reference extends to MiCols × MI_SIZE by MiRows × MI_SIZE.
            let lastX = ((f.miCols * K.MI_SIZE + subX) >> subX) - 1
            let lastY = ((f.miRows * K.MI_SIZE + subY) >> subY) - 1
            let intermediateHeight = min(136, (((h - 1) * stepY + (1 << 10) - 1) >> 10) + 8)
            let ref = frame.planes[plane]
            for r in 0..<max(0, intermediateHeight) {
                for c in 0..<w {
                    var s = 0
                    let p = startX + stepX * c
                    let k = (p >> 6) & K.SUBPEL_MASK
                    // Taps 0...2 and 5...7 of the bilinear filter are 0: only t = 3, 4 contribute.
                    for t in 3...4 {
                        s += Self.bilinearTap(k, t)
                            * ref.sample(AV1Arithmetic.clip3(0, lastX, (p >> 10) + t - 3),
                                         AV1Arithmetic.clip3(0, lastY, (startY >> 10) + r - 3))
                    }
                    intermediate[r * 128 + c] = AV1Arithmetic.round2(s, interRound0)
                }
            }
            for r in 0..<h {
                for c in 0..<w {
                    var s = 0
                    let p = (startY & 1023) + stepY * r
                    let k = (p >> 6) & K.SUBPEL_MASK
                    for t in 3...4 {
                        let row = AV1Arithmetic.clip3(0, 135, (p >> 10) + t)
                        s += Self.bilinearTap(k, t) * intermediate[row * 128 + c]
                    }
                    pred[r * 128 + c] = AV1Arithmetic.round2(s, interRound1)
                }
            }
            for i in 0..<h {
                for j in 0..<w {
                    frame.planes[plane][y: y + i, x: x + j] = UInt16(truncatingIfNeeded: AV1Arithmetic.clip1(pred[i * 128 + j], bitDepth))
                }
            }
        }
    }
}
