@testable import GlimpseCodec

/// A small deterministic generator (xorshift64*) so the AV1 primitive tests repeat exactly.
struct AV1TestRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}

/// A mode-info store for the loop filter and CDEF tests: every 4×4 unit alike.
struct AV1UniformModeInfo: AVIF.LoopFilterModeInfo, AVIF.CDEF.ModeInfo {
    var miSizeValue = AVIF.AV1Tables.BLOCK_8X8
    var txSizeValue = AVIF.AV1Tables.TX_8X8
    var skipValue = false
    var refFrame = AVIF.AV1Tables.INTRA_FRAME
    var mode = AVIF.AV1Tables.DC_PRED
    var cdefIndex = 0
    func miSize(row: Int, col: Int) -> Int { miSizeValue }
    func loopfilterTxSize(plane: Int, row: Int, col: Int) -> Int { txSizeValue }
    func skip(row: Int, col: Int) -> Bool { skipValue }
    func refFrame0(row: Int, col: Int) -> Int { refFrame }
    func yMode(row: Int, col: Int) -> Int { mode }
    func segmentId(row: Int, col: Int) -> Int { 0 }
    func deltaLF(row: Int, col: Int, index: Int) -> Int { 0 }
    func cdefIdx(row: Int, col: Int) -> Int { cdefIndex }
}
