import Testing
import TestSupport
@testable import GlimpseCodec

/// The vectorised loop filter (``WebP/LossyEdgeFilter``, 16 positions at a
/// time, vertical edges through 8×8 byte transposes) equals the per-pixel reference
/// (``WebP/LossyLoopFilter``, libwebp's `dsp/dec.c` formulas) on random edges.
@Suite struct WebPLossyLoopFilterTests {
    @Test func vectorFilterEqualsPerPixelFilter() {
        var random = SplitMix(seed: 15)
        let stride = 24
        var mismatches = 0
        for trial in 0..<1000 {
            let base = Int(random.next() % 256), spread = 1 + Int(random.next() % 24)
            var reference = (0..<stride * 24).map { _ in
                UInt8(clamping: base + Int(random.next() % UInt64(2 * spread + 1)) - spread)
            }
            var vector = reference
            let limit = Int32(1 + random.next() % 193), interior = Int32(1 + random.next() % 63)
            let hev = Int32(random.next() % 3), macroblockEdge = random.next() & 1 == 0
            let vertical = random.next() & 1 == 0, simple = trial % 4 == 0
            reference.withUnsafeMutableBufferPointer { buffer in
                let p = buffer.baseAddress! + 4 * stride + 4
                let step = vertical ? 1 : stride, along = vertical ? stride : 1
                if simple {
                    WebP.LossyLoopFilter.simpleEdge(p, step: step, along: along, limit: limit)
                } else {
                    WebP.LossyLoopFilter.normalEdge(p, step: step, along: along, count: 16, limit: limit,
                                                    interior: interior, hevThreshold: hev, macroblockEdge: macroblockEdge)
                }
            }
            vector.withUnsafeMutableBufferPointer { buffer in
                let p = buffer.baseAddress! + 4 * stride + 4
                var edge = vertical ? WebP.LossyEdgeFilter.loadVertical(p, p + 8 * stride, stride: stride)
                                    : WebP.LossyEdgeFilter.loadHorizontal(p, stride: stride, wide: true)
                if simple {
                    WebP.LossyEdgeFilter.simple(&edge, limit: limit)
                } else {
                    WebP.LossyEdgeFilter.normal(&edge, limit: limit, interior: interior, hevThreshold: hev,
                                                macroblockEdge: macroblockEdge)
                }
                if vertical {
                    WebP.LossyEdgeFilter.storeVertical(edge, p, p + 8 * stride, stride: stride)
                } else {
                    WebP.LossyEdgeFilter.storeHorizontal(edge, p, stride: stride, wide: true)
                }
            }
            if reference != vector { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
