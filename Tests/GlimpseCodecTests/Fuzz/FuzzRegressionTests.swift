import Foundation
import TestSupport
import Testing

/// Replays every input kept in `Fuzz/Regressions/<target>/` through the same
/// checks the fuzz harness runs: each once crashed, hung, exceeded the limits
/// or broke an invariant, and must now pass.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    @Test(arguments: FuzzTarget.allCases)
    func regressionsPass(_ target: FuzzTarget) throws {
        let directory = Fixtures.repositoryRoot.appendingPathComponent("Fuzz/Regressions/\(target.rawValue)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
            let bytes = try Fixtures.bytes(at: directory.appendingPathComponent(name))
            #expect(FuzzChecks.run(target, bytes) == nil, "\(target)/\(name)")
        }
    }

    /// The fuzzer's first seed to trip the WebP check: a 380-frame animation cut at
    /// 256 KiB (its `-max_len`). The decoder keeping the frames runs out of byte budget
    /// (96 MiB) after about 178 frames; the iterator, which keeps only its canvas, decodes 200 frames
    /// and then meets the cut. Both are right; the check must accept the pair.
    @Test(.enabled(if: Fixtures.corpus("webp/anim/wuffs_gifplayer-muybridge-mixed.webp") != nil))
    func webPDecoderOverBudgetWhileTheIteratorGoesOn() throws {
        let url = try #require(Fixtures.corpus("webp/anim/wuffs_gifplayer-muybridge-mixed.webp"))
        let bytes = Array(try Fixtures.bytes(at: url).prefix(256 << 10))
        #expect(FuzzChecks.run(.webp, bytes) == nil)
    }

    @Test func splitPointsCoverTheInputAndDependOnIt() {
        let a = [UInt8](repeating: 1, count: 5000), b = [UInt8](repeating: 2, count: 5000)
        for bytes in [a, b] {
            let ranges = FuzzChecks.splitPoints(bytes)
            #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == bytes.count)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        }
        #expect(FuzzChecks.splitPoints(a) != FuzzChecks.splitPoints(b))
        #expect(FuzzChecks.splitPoints(a) == FuzzChecks.splitPoints(a))
    }
}
