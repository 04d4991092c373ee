import Testing
@testable import GlimpseCodec

/// §7.11.3 as intra block copy uses it: whole-sample vectors copy, half-sample chroma averages.
@Suite struct AV1IntraBlockCopyTests {
    @Test func bilinearTapsAreTheSpecificationsTable() {
        // Subpel_Filters[ BILINEAR ] rows 1, 8 and 15.
        #expect((0..<8).map { AVIF.IntraBlockCopy.bilinearTap(1, $0) } == [0, 0, 0, 120, 8, 0, 0, 0])
        #expect((0..<8).map { AVIF.IntraBlockCopy.bilinearTap(8, $0) } == [0, 0, 0, 64, 64, 0, 0, 0])
        #expect((0..<8).map { AVIF.IntraBlockCopy.bilinearTap(15, $0) } == [0, 0, 0, 8, 120, 0, 0, 0])
    }

    @Test func copiesAndAverages() {
        var random = AV1TestRandom(seed: 17)
        for bitDepth in [8, 12] {
            var frame = AVIF.AV1Frame(lumaWidth: 64, lumaHeight: 64, bitDepth: bitDepth, subsamplingX: 1, subsamplingY: 1,
                                      monochrome: false)
            for p in 0..<3 {
                for k in 0..<frame.planes[p].samples.count {
                    frame.planes[p].samples[k] = UInt16.random(in: 0..<(1 << bitDepth), using: &random)
                }
            }
            let source = frame
            let f = AVIF.IntraBlockCopy.Frame(frameWidth: 64, frameHeight: 64, miCols: 16, miRows: 16)
            var copier = AVIF.IntraBlockCopy()
            // 8 rows up, 4 columns left, in 1/8 luma sample.
            copier.predict(frame: &frame, plane: 0, x: 32, y: 32, w: 16, h: 8, mv: (row: -64, col: -32), f)
            for i in 0..<8 {
                for j in 0..<16 { #expect(frame.planes[0][y: 32 + i, x: 32 + j] == source.planes[0][y: 24 + i, x: 28 + j]) }
            }
            // One luma sample right is half a chroma sample: ( a + b + 1 ) >> 1.
            copier.predict(frame: &frame, plane: 1, x: 16, y: 16, w: 8, h: 8, mv: (row: -64, col: 8), f)
            for i in 0..<8 {
                for j in 0..<8 {
                    let a = Int(source.planes[1][y: 12 + i, x: 16 + j]), b = Int(source.planes[1][y: 12 + i, x: 17 + j])
                    #expect(Int(frame.planes[1][y: 16 + i, x: 16 + j]) == (a + b + 1) >> 1)
                }
            }
        }
    }
}
