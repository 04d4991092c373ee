import GlimpseCodec
import Testing

@Suite("Transform: blur, rounded corners, tint, arbitrary rotation")
struct EffectTransformTests {
    typealias T = TransformTestImages

    @Test(arguments: [0.3, 1, 2.5, 7])
    func blurOfAConstantStaysConstant(sigma: Double) throws {
        for format in PixelFormat.allCases {
            let colour = SIMD4<UInt8>(12, 130, 250, 200)
            let source = T.constant(width: 23, height: 9, colour, format: format)
            let out = try ImageTransformers.GaussianBlur(sigma: sigma).transform(source)
            #expect(out == source, "sigma \(sigma) \(format)")
        }
    }

    @Test(arguments: [0.8, 2.0, 6.0, 15.0])
    func boxCascadeKeepsAConstantImage(sigma: Double) throws {
        for format in PixelFormat.allCases {
            let source = T.constant(width: 17, height: 40, [12, 130, 250, 200], format: format)
            #expect(try ImageTransformers.GaussianBlur(sigma: sigma, method: .boxCascade).transform(source) == source)
        }
    }

    /// Away from the borders (where repeated edge extension differs from a
    /// single one) the cascade follows the exact Gaussian closely.
    @Test(arguments: [3.0, 6.0, 10.0])
    func boxCascadeFollowsTheExactBlur(sigma: Double) throws {
        typealias Blur = ImageTransformers.GaussianBlur
        // A hard-edged white square on a colour ramp.
        var pixels: [SIMD4<UInt8>] = []
        for y in 0..<120 {
            for x in 0..<140 {
                let inSquare = abs(x - 70) < 12 && abs(y - 60) < 12
                pixels.append(inSquare ? SIMD4(255, 255, 255, 255) : SIMD4(UInt8(x), 40, UInt8(y * 2), 255))
            }
        }
        let image = T.rgba8(width: 140, height: 120, pixels)
        let margin = Int(3 * sigma) + 1
        let inner = ImageTransformers.Crop(x: margin, y: margin, width: 140 - 2 * margin, height: 120 - 2 * margin)
        let exact = try inner.transform(Blur(sigma: sigma, method: .exact).transform(image))
        let cascade = try inner.transform(Blur(sigma: sigma, method: .boxCascade).transform(image))
        let difference = T.maximumDifference(exact, cascade)
        #expect(difference <= 6, "sigma \(sigma): \(difference)")
        #expect(try exact != inner.transform(image))
    }

    @Test func blurKernelIsNormalisedAndSymmetric() {
        for sigma in [0.5, 1, 3, 10] {
            let kernel = ImageTransformers.GaussianBlur.kernel(sigma: sigma)
            #expect(kernel.count == 2 * Int((3 * sigma).rounded(.up)) + 1)
            #expect(abs(kernel.reduce(0, +) - 1) < 1e-5)
            #expect(kernel == kernel.reversed())
            #expect(kernel[kernel.count / 2] == kernel.max())
        }
    }

    @Test func blurSpreadsAndConservesASquare() throws {
        // A 5×5 white square centred in 31×31 opaque black.
        let pixels = (0..<31).flatMap { y in
            (0..<31).map { x -> SIMD4<UInt8> in abs(x - 15) <= 2 && abs(y - 15) <= 2 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        }
        let out = try ImageTransformers.GaussianBlur(sigma: 1.5).transform(T.rgba8(width: 31, height: 31, pixels))
        let total = T.allPixels(out).reduce(0) { $0 + Int($1.x) }
        #expect(abs(total - 25 * 255) < 25 * 255 / 50) // within 2 %
        #expect(out.pixel(x: 15, y: 15).x < 255 && out.pixel(x: 15, y: 15).x > 200)
        #expect(out.pixel(x: 19, y: 15).x > 0)
        #expect(out.pixel(x: 0, y: 0) == [0, 0, 0, 255])
        for (x, y) in [(13, 11), (17, 19), (10, 15)] {
            #expect(out.pixel(x: x, y: y) == out.pixel(x: 30 - x, y: 30 - y))
            #expect(out.pixel(x: x, y: y) == out.pixel(x: y, y: x))
        }
    }

    @Test func blurDoesNotBleedTransparentColour() throws {
        let red = SIMD4<UInt8>(255, 0, 0, 0), blue = SIMD4<UInt8>(0, 0, 255, 255)
        let row = Array(repeating: red, count: 6) + Array(repeating: blue, count: 6)
        let out = try ImageTransformers.GaussianBlur(sigma: 2).transform(T.rgba8(width: 12, height: 3, row + row + row))
        let visible = T.allPixels(out).filter { $0.w > 0 }
        #expect(visible.count > 18)
        #expect(visible.allSatisfy { $0.x == 0 && $0.y == 0 && $0.z == 255 })
    }

    @Test(arguments: [0, -1, .nan, .infinity, 501])
    func blurRefusesBadSigma(sigma: Double) {
        let error = #expect(throws: TransformError.self) {
            try ImageTransformers.GaussianBlur(sigma: sigma).transform(T.constant(width: 2, height: 2, [1, 1, 1, 1]))
        }
        guard case .invalidParameter = error else { Issue.record("\(String(describing: error))"); return }
    }

    @Test func roundedCorners() throws {
        let source = T.constant(width: 40, height: 30, [200, 100, 50, 255])
        let out = try ImageTransformers.RoundedCorners(radius: 10).transform(source)
        // Outside the arc: fully transparent; far inside: untouched; on it: partial.
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29), (1, 1)] { #expect(out.pixel(x: x, y: y).w == 0) }
        for (x, y) in [(20, 15), (10, 0), (0, 10), (39, 15), (7, 7)] { #expect(out.pixel(x: x, y: y) == [200, 100, 50, 255]) }
        let edge = out.pixel(x: 3, y: 2).w
        #expect(edge > 0 && edge < 255)
        // The four corners mirror each other; colour is never changed.
        for y in 0..<10 {
            for x in 0..<10 {
                let p = out.pixel(x: x, y: y)
                #expect(p == out.pixel(x: 39 - x, y: y) && p == out.pixel(x: x, y: 29 - y) && p == out.pixel(x: 39 - x, y: 29 - y))
                #expect(p.x == 200 && p.y == 100 && p.z == 50)
            }
        }
        // Alpha only ever decreases, and a radius beyond half the side is clamped.
        let pill = try ImageTransformers.RoundedCorners(radius: 1000).transform(T.constant(width: 9, height: 5, [9, 9, 9, 128]))
        #expect(pill.pixel(x: 4, y: 2) == [9, 9, 9, 128])
        let (corner, nearCorner, side) = (pill.pixel(x: 0, y: 0).w, pill.pixel(x: 0, y: 1).w, pill.pixel(x: 0, y: 2).w)
        #expect(corner < nearCorner && nearCorner < side && side == 128)
        #expect(try ImageTransformers.RoundedCorners(radius: 0).transform(source) == source)
        #expect(throws: TransformError.invalidParameter("corner radius -1.0")) {
            try ImageTransformers.RoundedCorners(radius: -1).transform(source)
        }
    }

    @Test func tint() throws {
        let source = T.rgba8(width: 2, height: 1, [[0, 100, 255, 255], [255, 255, 255, 7]])
        #expect(try ImageTransformers.Tint(red: 255, green: 0, blue: 0, intensity: 0).transform(source) == source)
        let full = try ImageTransformers.Tint(red: 255, green: 0, blue: 0, intensity: 1).transform(source)
        #expect(T.allPixels(full) == [[255, 0, 0, 255], [255, 0, 0, 7]])
        let half = try ImageTransformers.Tint(red: 0, green: 0, blue: 0, intensity: 0.5).transform(source)
        #expect(T.allPixels(half) == [[0, 50, 128, 255], [128, 128, 128, 7]])
        let half16 = try ImageTransformers.Tint(red: 0, green: 0, blue: 0, intensity: 0.5).transform(source.converted(to: .rgba16))
        #expect(T.allPixels(half16) == [[0, 12850, 32768, 65535], [32768, 32768, 32768, 1799]])
        #expect(throws: TransformError.invalidParameter("tint intensity 1.5")) {
            try ImageTransformers.Tint(red: 0, green: 0, blue: 0, intensity: 1.5).transform(source)
        }
    }

    @Test func arbitraryRotationEnlargesTheCanvas() throws {
        let source = T.constant(width: 20, height: 10, [0, 200, 0, 255])
        let out = try ImageTransformers.Rotate(degrees: 45).transform(source)
        // 20·cos45 + 10·sin45 = 21.2 → 22 both ways.
        #expect(out.width == 22 && out.height == 22)
        #expect(out.pixel(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(out.pixel(x: 21, y: 21) == [0, 0, 0, 0])
        #expect(out.pixel(x: 11, y: 11) == [0, 200, 0, 255])
        // Edges fade but never change colour (premultiplied sampling).
        let visible = T.allPixels(out).filter { $0.w > 0 }
        #expect(visible.allSatisfy { $0.x == 0 && $0.y == 200 && $0.z == 0 })
        #expect(visible.contains { $0.w < 255 })
    }

    @Test func sixteenBitFollowsEightBit() throws {
        var pixels: [SIMD4<UInt8>] = []
        for y in 0..<16 { for x in 0..<24 { pixels.append(SIMD4(UInt8(x * 10), UInt8(y * 15), 90, UInt8(255 - x * 3))) } }
        let image8 = T.rgba8(width: 24, height: 16, pixels)
        let transformers: [any ImageTransformer] = [
            ImageTransformers.Rotate(degrees: 33), ImageTransformers.RoundedCorners(radius: 6.5),
            ImageTransformers.GaussianBlur(sigma: 1.2), ImageTransformers.GaussianBlur(sigma: 5),
            ImageTransformers.Tint(red: 200, green: 10, blue: 10, intensity: 0.4),
            ImageTransformers.Resize(width: 9, filter: .mitchell, linearLight: true),
        ]
        for transformer in transformers {
            let out8 = try transformer.transform(image8)
            let out16 = try transformer.transform(image8.converted(to: .rgba16))
            #expect(out16.format == .rgba16)
            #expect(T.maximumDifference(out16.converted(to: .rgba8), out8) <= 1, "\(transformer.cacheKey)")
        }
    }

    @Test func arbitraryRotationTurnsClockwise() throws {
        // A red marker at the top-centre of a tall opaque canvas ends up on the right after ~90°.
        var pixels = Array(repeating: SIMD4<UInt8>(0, 0, 255, 255), count: 9 * 21)
        for y in 0..<3 { for x in 3..<6 { pixels[y * 9 + x] = [255, 0, 0, 255] } }
        let out = try ImageTransformers.Rotate(degrees: 89.5).transform(T.rgba8(width: 9, height: 21, pixels))
        #expect(out.width >= 21 && out.height >= 9)
        let cy = out.height / 2
        #expect(out.pixel(x: out.width - 3, y: cy).x > 200)
        #expect(out.pixel(x: 2, y: cy).x == 0)
    }

    @Test func rotationRefusesBadAnglesAndHugeCanvases() throws {
        let source = T.constant(width: 4, height: 4, [1, 2, 3, 255])
        #expect(throws: TransformError.invalidParameter("rotation angle nan")) {
            try ImageTransformers.Rotate(degrees: .nan).transform(source)
        }
        var limits = DecodingLimits()
        limits.maxWidth = 4
        #expect(throws: TransformError.limitExceeded(.width)) {
            try ImageTransformers.Rotate(degrees: 30, limits: limits).transform(source)
        }
    }
}
