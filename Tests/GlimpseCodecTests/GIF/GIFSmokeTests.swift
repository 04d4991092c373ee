import Testing
@testable import GlimpseCodec

@Suite struct GIFSmokeTests {
    @Test func interlaceRowsCoverEveryRow() {
        for height in 1...40 {
            let rows = (0..<height).map { GIF.Interlace.row($0, height: height) }
            #expect(rows.sorted() == Array(0..<height))
        }
    }
}
