import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The find MV stack process's pieces (AV1 §7.10.2) as intra block copy uses them, and damaged
/// intra block copy files through the whole decoder.
@Suite struct AV1MotionVectorStackTests {
    /// §7.10.2.8: an equal vector adds its weight, a new one is appended, a full stack ignores more.
    @Test func searchStackMergesAndAppends() {
        var stack = AVIF.MotionVectorStack()
        stack.add((row: -64, col: 0), weight: 2)
        stack.add((row: 0, col: -128), weight: 4)
        stack.add((row: -64, col: 0), weight: 6)
        #expect(stack.count == 2)
        #expect(stack.weights.prefix(2) == [8, 4])
        for k in 0..<20 { stack.add((row: -8 * (k + 20), col: 0), weight: 2) }
        #expect(stack.count == AVIF.MotionVectorStack.capacity)
    }

    /// §7.10.2.11 is a stable bubble sort by falling weight over [start, end) only.
    @Test func sortIsStableByFallingWeight() {
        var stack = AVIF.MotionVectorStack()
        let entries = [(1, 4), (2, 10), (3, 4), (4, 10), (5, 2)]
        for (row, weight) in entries { stack.add((row: 8 * row, col: 0), weight: weight) }
        stack.sort(1, 5)
        #expect((0..<5).map { stack.mv($0).row / 8 } == [1, 2, 4, 3, 5])
        #expect(Array(stack.weights.prefix(5)) == [4, 10, 10, 4, 2])
        stack.sort(0, 5)
        #expect((0..<5).map { stack.mv($0).row / 8 } == [2, 4, 1, 3, 5])
    }

    /// Step 6 of §7.10.2 (REF_CAT_LEVEL on the nearest), §7.10.2.12 (zero fill without counting)
    /// and §7.10.2.14's clamping.
    @Test func weightFillAndClamp() {
        var stack = AVIF.MotionVectorStack()
        stack.add((row: -4000, col: 3000), weight: 2)
        stack.addWeight(640, below: 1)
        #expect(stack.weights[0] == 642)
        stack.fill(upTo: 2, with: (0, 0))
        #expect(stack.count == 1 && stack.mv(1) == (0, 0))
        stack.clamp(rows: -1000...1000, cols: -500...500)
        #expect(stack.mv(0) == (-1000, 500))
        #expect(stack.mv(1) == (0, 0), "entries past NumMvFound are not clamped")
    }

    /// §7.10.2.10 with force_integer_mv: whole samples, ties ((|v| + 3) >> 3) as the specification rounds.
    @Test func lowerPrecisionRoundsToWholeSamples() {
        typealias D = AVIF.TileDecoder<AVIF.DiscardingReconstructor>
        #expect([-13, -12, -5, -4, 0, 4, 5, 12, 13, 64].map(D.lowerMvPrecision) == [-16, -8, -8, 0, 0, 0, 8, 8, 16, 64])
    }

    /// An intra block copy file's coded item with bytes flipped in its tile data: the tile
    /// syntax (where `is_mv_valid`, §6.10.25, is checked, before any prediction) answers with a
    /// typed error or parses; some flips give vectors it rejects.
    @Test(.enabled(if: Fixtures.corpus("avif/microsoft/Monochrome.avif") != nil))
    func damagedIntraBlockCopyItemIsATypedError() throws {
        let bytes = try Fixtures.bytes(at: try #require(Fixtures.corpus("avif/microsoft/Monochrome.avif")))
        var decoder = AVIF.Decoder(options: DecodingOptions())
        _ = try decoder.append(bytes)
        let item = try #require(decoder.codedItems.first)
        var rng = SplitMix(seed: 0x1BC)
        var vectorErrors = 0
        for _ in 0..<200 {
            var damaged = item.data
            let position = 32 + Int(rng.next() % UInt64(item.data.count - 32))
            damaged[position] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            do throws(ImageDecodingError) {
                _ = try AVIF.FrameParser.parse(damaged, sequence: item.sequence, limits: DecodingLimits(),
                                               reconstructor: AVIF.DiscardingReconstructor())
            } catch {
                switch error {
                case .malformed(.avif(.av1(.tileData(.blockVector)))): vectorErrors += 1
                case .malformed, .unsupported, .limitExceeded, .truncated: break
                default: Issue.record("untyped failure \(error)")
                }
            }
        }
        #expect(vectorErrors > 0, "no flip produced an invalid block vector")
    }
}
