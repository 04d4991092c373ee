import Testing
@testable import GlimpseCodec

/// The frame compositor, on hand-made frames, against libwebp's rules (`anim_decode.c`).
@Suite struct WebPCompositorTests {
    typealias Compositor = WebP.Compositor

    static func pixels(_ count: Int, _ rgba: [UInt8]) -> [UInt8] { Array((0..<count).map { _ in rgba }.joined()) }

    static func draw(_ compositor: inout Compositor, _ pixels: [UInt8], x: Int, y: Int, width: Int, height: Int,
                     alpha: Bool = true, blend: Bool = true, dispose: Bool = false) {
        let placement = Compositor.Placement(rect: .init(x: x, y: y, width: width, height: height),
                                             hasAlpha: alpha, blends: blend, disposeToBackground: dispose)
        pixels.withUnsafeBytes { compositor.draw($0, placement) }
    }

    static func pixel(_ c: Compositor, _ x: Int, _ y: Int) -> [UInt8] {
        Array(c.canvas[(y * c.width + x) * 4..<(y * c.width + x) * 4 + 4])
    }

    @Test func blendingUsesLibwebpsIntegerFormula() {
        var c = Compositor(width: 2, height: 1)
        Self.draw(&c, Self.pixels(2, [200, 100, 50, 200]), x: 0, y: 0, width: 2, height: 1)
        Self.draw(&c, Self.pixels(1, [10, 20, 255, 100]), x: 1, y: 0, width: 1, height: 1)
        // dst_factor = 200 * 156 >> 8 = 121; alpha = 221; scale = 2^24 / 221 = 75915;
        // red = (10*100 + 200*121) * 75915 >> 24 = 114, green 63, blue 142.
        #expect(Self.pixel(c, 1, 0) == [114, 63, 142, 221])
        #expect(Self.pixel(c, 0, 0) == [200, 100, 50, 200])
        // A fully transparent source pixel keeps what is below; an opaque one replaces it.
        Self.draw(&c, [1, 2, 3, 0, 9, 8, 7, 255], x: 0, y: 0, width: 2, height: 1)
        #expect(Self.pixel(c, 0, 0) == [200, 100, 50, 200])
        #expect(Self.pixel(c, 1, 0) == [9, 8, 7, 255])
    }

    @Test func firstFrameIsDrawnOnATransparentCanvas() {
        var c = Compositor(width: 3, height: 1)
        Self.draw(&c, [5, 6, 7, 10], x: 1, y: 0, width: 1, height: 1)
        #expect(c.canvas == [0, 0, 0, 0, 5, 6, 7, 10, 0, 0, 0, 0])
    }

    @Test func disposedRectangleIsCopiedNotBlended() {
        var c = Compositor(width: 3, height: 1)
        Self.draw(&c, Self.pixels(3, [100, 100, 100, 255]), x: 0, y: 0, width: 3, height: 1, alpha: false)
        Self.draw(&c, Self.pixels(1, [50, 50, 50, 255]), x: 1, y: 0, width: 1, height: 1, dispose: true)
        // The next frame covers the disposed pixel and its right neighbour: inside the disposed
        // rectangle the decoded pixel stands (not blended with transparency); outside it blends.
        Self.draw(&c, Self.pixels(2, [200, 0, 0, 3]), x: 1, y: 0, width: 2, height: 1)
        #expect(Self.pixel(c, 1, 0) == [200, 0, 0, 3])
        // 3 over opaque 100: factor 255 * 253 >> 8 = 252, alpha 255, scale 65793.
        #expect(Self.pixel(c, 2, 0) == [101, 98, 98, 255])
        #expect(Self.pixel(c, 0, 0) == [100, 100, 100, 255])
    }

    @Test func keyFramesStartFromTransparency() {
        var c = Compositor(width: 2, height: 1)
        Self.draw(&c, Self.pixels(2, [100, 100, 100, 255]), x: 0, y: 0, width: 2, height: 1, alpha: false)
        // A full-canvas frame without blending is a key frame: nothing of the previous canvas remains.
        Self.draw(&c, [1, 1, 1, 0, 2, 2, 2, 128], x: 0, y: 0, width: 2, height: 1, blend: false)
        #expect(c.canvas == [1, 1, 1, 0, 2, 2, 2, 128])
        // After a full-canvas frame disposed to background, a partial frame starts from a clear canvas.
        Self.draw(&c, Self.pixels(2, [9, 9, 9, 255]), x: 0, y: 0, width: 2, height: 1, alpha: false, dispose: true)
        Self.draw(&c, [7, 7, 7, 77], x: 1, y: 0, width: 1, height: 1)
        #expect(c.canvas == [0, 0, 0, 0, 7, 7, 7, 77])
    }
}
