/// The bits of the mode trees of a key frame (RFC 6386 §11.2–§11.4), the
/// inverse of ``WebP/LossyMacroblockModes``' reading: each function reports
/// the bits of one mode in order, with the node (sub-block modes: index into
/// the context's nine probabilities) or the fixed probability they are coded at.
extension WebP {
    enum LossyModeCoder {
        typealias P = LossyPrediction

        /// `B_PRED` sub-block mode `mode`; `emit(bit, node)` with node 0…8.
        @inline(__always)
        static func subblockModeBits(_ mode: Int, _ emit: (Bool, Int) -> Void) {
            emit(mode != P.dc, 0)
            if mode == P.dc { return }
            emit(mode != P.tm, 1)
            if mode == P.tm { return }
            emit(mode != P.ve, 2)
            if mode == P.ve { return }
            let upper = mode == P.ld || mode == P.vl || mode == P.hd || mode == P.hu
            emit(upper, 3)
            if !upper {
                emit(mode != P.he, 4)
                if mode != P.he { emit(mode == P.vr, 5) }
                return
            }
            emit(mode != P.ld, 6)
            if mode == P.ld { return }
            emit(mode != P.vl, 7)
            if mode == P.vl { return }
            emit(mode == P.hu, 8)
        }

        /// A 16×16 luma mode (after the `is4x4` bit); `emit(bit, probability)`.
        static func lumaModeBits(_ mode: Int, _ emit: (Bool, Int) -> Void) {
            let horizontalOrTM = mode == P.tm || mode == P.he
            emit(horizontalOrTM, 156)
            if horizontalOrTM { emit(mode == P.tm, 128) } else { emit(mode == P.ve, 163) }
        }

        /// A chroma mode; `emit(bit, probability)`.
        static func chromaModeBits(_ mode: Int, _ emit: (Bool, Int) -> Void) {
            emit(mode != P.dc, 142)
            if mode == P.dc { return }
            emit(mode != P.ve, 114)
            if mode == P.ve { return }
            emit(mode == P.tm, 183)
        }

        /// Writes one macroblock's header into the first partition (RFC 6386 §19.3):
        /// segment id, skip flag, luma modes with their contexts, chroma mode.
        static func write(_ info: LossyMacroblockInfo, into encoder: inout LossyBoolEncoder,
                          segmentProbabilities: [UInt8]?, skipProbability: Int?,
                          above: UnsafeMutablePointer<UInt8>, left: UnsafeMutablePointer<UInt8>) {
            if let p = segmentProbabilities {
                let s = Int(info.segment)
                encoder.put(s >= 2, Int(p[0]))
                encoder.put(s & 1 == 1, Int(p[s >= 2 ? 2 : 1]))
            }
            if let skipProbability { encoder.put(info.hasNoCoefficients, skipProbability) }
            encoder.put(!info.is4x4, 145)
            if !info.is4x4 {
                let mode = info.lumaMode(0)
                lumaModeBits(mode) { bit, probability in encoder.put(bit, probability) }
                above.update(repeating: UInt8(mode), count: 4)
                left.update(repeating: UInt8(mode), count: 4)
            } else {
                let table = LossyTables.subblockModeProbabilities
                for y in 0..<4 {
                    for x in 0..<4 {
                        let mode = info.lumaMode(y * 4 + x)
                        let context = (Int(above[x]) * 10 + Int(left[y])) * 9
                        subblockModeBits(mode) { bit, node in encoder.put(bit, Int(table[context + node])) }
                        above[x] = UInt8(mode)
                        left[y] = UInt8(mode)
                    }
                }
            }
            chromaModeBits(Int(info.chromaMode)) { bit, probability in encoder.put(bit, probability) }
        }
    }
}
