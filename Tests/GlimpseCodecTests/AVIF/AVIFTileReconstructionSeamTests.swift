import Testing
import TestSupport
@testable import GlimpseCodec

/// What the tile syntax hands the decoding process through ``AVIF/TileReconstructing``, on
/// a real file: calls in the specification's order with self-consistent arguments, and the
/// frame-level mode info filled.
@Suite struct AVIFTileReconstructionSeamTests {
    /// Records every call.
    struct Recorder: AVIF.TileReconstructing {
        enum Call {
            case intra(AVIF.IntraPredictionRequest)
            case palette(plane: Int, x: Int, y: Int, txSz: Int)
            case cfl(plane: Int, x: Int, y: Int, alpha: Int)
            case intraBlockCopy(plane: Int, x: Int, y: Int)
            case residual(plane: Int, x: Int, y: Int, txSz: Int, txType: Int, eob: Int, dcQIndex: Int, acQIndex: Int,
                          nonZero: Int, first: [Int32])
        }
        var calls: [Call] = []
        mutating func predictIntra(_ request: AVIF.IntraPredictionRequest) { calls.append(.intra(request)) }
        mutating func predictPalette(plane: Int, startX: Int, startY: Int, x: Int, y: Int, txSz: Int,
                                     palette: [UInt16], colorMap: [UInt8], colorMapStride: Int) {
            calls.append(.palette(plane: plane, x: startX, y: startY, txSz: txSz))
        }
        mutating func predictChromaFromLuma(plane: Int, startX: Int, startY: Int, txSz: Int, alpha: Int,
                                            maxLumaW: Int, maxLumaH: Int) {
            calls.append(.cfl(plane: plane, x: startX, y: startY, alpha: alpha))
        }
        mutating func predictIntraBlockCopy(plane: Int, x: Int, y: Int, width: Int, height: Int, mv: (row: Int, col: Int)) {
            calls.append(.intraBlockCopy(plane: plane, x: x, y: y))
        }
        mutating func reconstruct(_ block: AVIF.ResidualBlock) {
            let values = block.quant.prefix(block.count)
            calls.append(.residual(plane: block.plane, x: block.x, y: block.y, txSz: block.txSz, txType: block.txType,
                                   eob: block.eob, dcQIndex: block.dcQIndex, acQIndex: block.acQIndex,
                                   nonZero: values.filter { $0 != 0 }.count, first: Array(values.prefix(8))))
        }
    }

    static let fox: (data: [UInt8], sequence: AVIF.SequenceHeader)? = AVIFTileHostileTests.item

    @Test(.enabled(if: fox != nil)) func firstSuperblockOfFox() throws {
        let item = try #require(Self.fox)
        let (frame, info, recorder) = try AVIF.FrameParser.parse(item.data, sequence: item.sequence, limits: DecodingLimits(),
                                                                 reconstructor: Recorder())
        #expect(frame.tiles.tileCols * frame.tiles.tileRows >= 1)
        // Every luma sample of the frame is predicted exactly once (intra or palette).
        var lumaArea = 0
        for call in recorder.calls {
            if case .intra(let request) = call, request.plane == 0 { lumaArea += 1 << (request.log2W + request.log2H) }
            if case .palette(0, _, _, let txSz) = call { lumaArea += AVIF.AV1Tables.Tx_Width[txSz] * AVIF.AV1Tables.Tx_Height[txSz] }
        }
        #expect(lumaArea >= frame.header.frameWidth * frame.header.frameHeight)
        #expect(lumaArea <= frame.miCols * frame.miRows * 16 + 64 * 64 * (frame.miCols / 16 + frame.miRows / 16 + 1))
        // Every residual has a coefficient; without delta q or segments luma uses base_q_idx.
        for call in recorder.calls {
            if case .residual(let plane, _, _, _, _, let eob, let dc, let ac, let nonZero, _) = call {
                #expect(eob > 0 && nonZero > 0 && nonZero <= eob)
                if plane == 0 && !frame.deltaQPresent && !frame.segmentationEnabled {
                    #expect(dc == min(max(frame.baseQIdx + frame.deltaQYDc, 0), 255))
                    #expect(ac == frame.baseQIdx)
                }
            }
        }
        // The walk-through of the README: the first superblock's blocks and first calls.
        var lines: [String] = ["base_q_idx \(frame.baseQIdx) txMode \(frame.txMode) cdef bits \(frame.cdef.bits) lr \(frame.restoration.frameRestorationType) tiles \(frame.tiles.tileCols)x\(frame.tiles.tileRows) sb128 \(frame.sequence.uses128x128Superblocks)"]
        var row = 0
        while row < 16 {
            var col = 0
            var line = "row \(row):"
            while col < 16 {
                let index = row * info.miCols + col
                line += " [c\(col) size \(info.miSizes[index]) y \(info.yModes[index]) uv \(info.uvModes[index]) tx \(info.txSizes[index]) skip \(info.skips[index])]"
                col += max(1, AVIF.AV1Tables.Num_4x4_Blocks_Wide[Int(info.miSizes[index])])
            }
            lines.append(line)
            row += 1
        }
        for plane in 0..<frame.numPlanes {
            let units = info.restorationUnits[plane]
            lines.append("lr plane \(plane): unit size \(frame.restoration.loopRestorationSize[plane]), \(units.unitRows)x\(units.unitCols) units, first types \(units.type.prefix(4))")
        }
        for call in recorder.calls.prefix(14) { lines.append("\(call)") }
        print(lines.joined(separator: "\n"))
    }
}
