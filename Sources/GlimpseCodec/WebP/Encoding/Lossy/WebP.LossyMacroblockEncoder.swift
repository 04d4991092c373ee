/// Mode decision, quantisation and reconstruction of one macroblock at a time
/// (RFC 6386 §11–§14), in raster order.
///
/// Prediction runs in a work area laid out exactly as the decoder's
/// (``WebP/LossyFrameDecoder``: 32-byte rows, the unfiltered row above and
/// column to the left, 127 above the frame and 129 left of it, the above-right
/// pixels repeated down the right edge), filled from the reconstructed planes,
/// so every predictor sees the bytes a decoder will see. Each candidate mode is
/// predicted, transformed, quantised and reconstructed with the decoder's own
/// inverse transforms, and scored by rate–distortion: 256·SSE + λ·rate, the rate
/// in 1/256 bit from the token probabilities (``WebP/LossyTokenizer``).
///
/// The buffers are allocated in `init` and freed in `deinit`; the class is used
/// by one encode on one thread and never escapes it.
extension WebP {
    final class LossyMacroblockEncoder {
        typealias P = LossyPrediction
        static let s = LossyPrediction.stride
        static let lumaOffset = LossyFrameDecoder.lumaOffset
        static let uOffset = LossyFrameDecoder.uOffset
        static let vOffset = LossyFrameDecoder.vOffset
        static let workSize = LossyFrameDecoder.workSize

        let columns: Int
        let rows: Int
        let lumaWidth: Int
        var chromaWidth: Int { lumaWidth / 2 }
        /// The source planes and the reconstruction (unfiltered, what prediction sees).
        let sourceY: UnsafeMutablePointer<UInt8>, sourceU: UnsafeMutablePointer<UInt8>, sourceV: UnsafeMutablePointer<UInt8>
        let reconY: UnsafeMutablePointer<UInt8>, reconU: UnsafeMutablePointer<UInt8>, reconV: UnsafeMutablePointer<UInt8>
        /// Work area (predictions and reconstruction) and the source macroblock in the same layout.
        let work: UnsafeMutablePointer<UInt8>
        let source: UnsafeMutablePointer<UInt8>
        /// Scratch: coefficients, dequantised values, trial levels, the best 16×16 and chroma results.
        let coefficients: UnsafeMutablePointer<Int32>
        let dequantized: UnsafeMutablePointer<Int16>
        let trialLevels: UnsafeMutablePointer<Int16>
        let trialLasts: UnsafeMutablePointer<Int8>
        let bestLevels: UnsafeMutablePointer<Int16>
        let bestLasts: UnsafeMutablePointer<Int8>
        let bestPixels: UnsafeMutablePointer<UInt8>
        /// Non-zero contexts (RFC 6386 §13.3): per column 4 luma, 2 U, 2 V and the Y2 flag; the same to the left.
        let topNonZero: UnsafeMutablePointer<UInt8>
        var leftNonZero: [UInt8] = Array(repeating: 0, count: 9)
        /// Sub-block modes of the blocks above (4 per column) and to the left (RFC 6386 §11.3).
        let topModes: UnsafeMutablePointer<UInt8>
        var leftModes: [UInt8] = Array(repeating: 0, count: 4)

        /// The probabilities rates are estimated with.
        let probabilities: UnsafeMutablePointer<UInt8>
        var quantizers: (y1: LossyQuantizer, y2: LossyQuantizer, uv: LossyQuantizer)
        /// λ of luma and chroma decisions, in SSE per bit.
        var lambda: Int64
        var chromaLambda: Int64
        /// How many of the ten 4×4 modes of a sub-block go through the full
        /// rate–distortion test, the best by prediction error alone (0: 16×16 only).
        var subblockCandidates = 10
        /// Prediction-only scores of the ten 4×4 modes of the current sub-block.
        let screen: UnsafeMutablePointer<Int64>
        /// Mode costs in 1/256 bit: sub-block modes by above and left mode, 16×16 and chroma modes.
        let subblockModeCost: [Int32]
        let lumaModeCost: [Int32]
        let chromaModeCost: [Int32]
        let is4x4Cost: Int32, is16x16Cost: Int32

        init(planes: LossyPlanes, quantizers: (y1: LossyQuantizer, y2: LossyQuantizer, uv: LossyQuantizer)) {
            columns = planes.lumaWidth / 16
            rows = planes.lumaHeight / 16
            lumaWidth = planes.lumaWidth
            func copy(_ plane: [UInt8]) -> UnsafeMutablePointer<UInt8> {
                let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: plane.count)
                _ = UnsafeMutableBufferPointer(start: pointer, count: plane.count).initialize(from: plane)
                return pointer
            }
            func zeroed<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
                let pointer = UnsafeMutablePointer<T>.allocate(capacity: count)
                pointer.initialize(repeating: value, count: count)
                return pointer
            }
            sourceY = copy(planes.y); sourceU = copy(planes.u); sourceV = copy(planes.v)
            reconY = zeroed(planes.y.count, 0); reconU = zeroed(planes.u.count, 0); reconV = zeroed(planes.v.count, 0)
            work = zeroed(Self.workSize, 0)
            source = zeroed(Self.workSize, 0)
            coefficients = zeroed(16 * 16 + 32, 0)
            dequantized = zeroed(LossyBlocks.levelsPerMacroblock, 0)
            trialLevels = zeroed(LossyBlocks.levelsPerMacroblock, 0)
            trialLasts = zeroed(LossyBlocks.perMacroblock, -1)
            bestLevels = zeroed(LossyBlocks.levelsPerMacroblock, 0)
            bestLasts = zeroed(LossyBlocks.perMacroblock, -1)
            bestPixels = zeroed(16 * 16 + 2 * 64, 0)
            screen = zeroed(10, 0)
            topNonZero = zeroed(9 * columns, 0)
            topModes = zeroed(4 * columns, UInt8(P.dc))
            probabilities = zeroed(LossyTokenizer.probabilityCount, 128)
            for (i, p) in LossyTables.defaultCoefficientProbabilities.enumerated() { probabilities[i] = p }
            self.quantizers = quantizers
            lambda = Self.lambda(quantizers.y1.ac)
            chromaLambda = Self.lambda(quantizers.uv.ac)
            let cost = LossyTokenizer.cost
            var subblock = [Int32](repeating: 0, count: 1000)
            let table = LossyTables.subblockModeProbabilities
            for context in 0..<100 {
                for mode in 0..<10 {
                    var total: Int32 = 0
                    LossyModeCoder.subblockModeBits(mode) { bit, node in total += cost(bit, Int(table[context * 9 + node])) }
                    subblock[context * 10 + mode] = total
                }
            }
            subblockModeCost = subblock
            lumaModeCost = (0..<4).map { mode in
                var total: Int32 = 0
                LossyModeCoder.lumaModeBits(mode) { bit, probability in total += cost(bit, probability) }
                return total
            }
            chromaModeCost = (0..<4).map { mode in
                var total: Int32 = 0
                LossyModeCoder.chromaModeBits(mode) { bit, probability in total += cost(bit, probability) }
                return total
            }
            is4x4Cost = cost(false, 145)
            is16x16Cost = cost(true, 145)
        }

        deinit {
            for pointer in [sourceY, sourceU, sourceV, reconY, reconU, reconV, work, source, bestPixels, topNonZero,
                            topModes, probabilities] {
                pointer.deallocate()
            }
            coefficients.deallocate()
            screen.deallocate()
            dequantized.deallocate()
            trialLevels.deallocate()
            trialLasts.deallocate()
            bestLevels.deallocate()
            bestLasts.deallocate()
        }

        /// λ for an AC step: about q²/36 SSE per bit, where a level of 1 pays for
        /// itself once it removes a few bits' worth of squared error.
        static func lambda(_ step: Int32) -> Int64 { max(1, Int64(step) * Int64(step) / 36) }

        /// Switches to another segment's quantisers (and their λ).
        func use(_ quantizers: (y1: LossyQuantizer, y2: LossyQuantizer, uv: LossyQuantizer)) {
            self.quantizers = quantizers
            lambda = Self.lambda(quantizers.y1.ac)
            chromaLambda = Self.lambda(quantizers.uv.ac)
        }

        /// Resets the left contexts at the start of a macroblock row.
        func beginRow() {
            for i in 0..<9 { leftNonZero[i] = 0 }
            for i in 0..<4 { leftModes[i] = UInt8(P.dc) }
        }

        /// Chooses the modes of macroblock (`mbX`, `mbY`), quantises it into `levels`
        /// (``LossyBlocks`` layout) and `lasts` (scan position of each block's last non-zero
        /// level, −1 for none), and reconstructs it into the planes.
        func encode(_ mbX: Int, _ mbY: Int, levels: UnsafeMutablePointer<Int16>, lasts: UnsafeMutablePointer<Int8>)
            -> LossyMacroblockInfo {
            load(mbX, mbY)
            var info = LossyMacroblockInfo()
            let y = work + Self.lumaOffset
            // 16×16 first: its result waits in the best buffers while 4×4 is tried in the work area.
            let (mode16, score16) = searchLuma16(mbX, mbY)
            var is4x4 = false
            if subblockCandidates > 0, let score4 = searchLuma4x4(mbX, budget: score16, levels: levels, lasts: lasts, info: &info),
               score4 < score16 {
                is4x4 = true
            }
            if is4x4 {
                info.is4x4 = true
                lasts[LossyBlocks.y2] = -1
            } else {
                info.setLumaMode(0, mode16)
                for j in 0..<16 {
                    let at: Int = Self.s &* j, packed: Int = 16 &* j
                    (y + at).update(from: bestPixels + packed, count: 16)
                }
                levels.update(from: bestLevels, count: 16 &* 16)
                let y2: Int = LossyBlocks.y2 &* 16
                (levels + y2).update(from: bestLevels + y2, count: 16)
                lasts.update(from: bestLasts, count: 16)
                lasts[LossyBlocks.y2] = bestLasts[LossyBlocks.y2]
            }
            info.chromaMode = UInt8(searchChroma(mbX, mbY, levels: levels, lasts: lasts))
            commit(mbX, mbY, info: info, lasts: lasts)
            return info
        }
    }
}
