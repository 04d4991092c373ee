import GlimpseCodec
import Testing

@Suite("Transform: resize")
struct ResizeTests {
    typealias T = TransformTestImages
    typealias Resize = ImageTransformers.Resize

    @Test(arguments: ResamplingFilter.allCases, [false, true])
    func aConstantImageStaysConstant(filter: ResamplingFilter, linearLight: Bool) throws {
        let colour = SIMD4<UInt8>(10, 200, 91, 255)
        for format in PixelFormat.allCases {
            let source = T.constant(width: 37, height: 23, colour, format: format)
            let expected = T.constant(width: 1, height: 1, colour, format: format).pixel(x: 0, y: 0)
            for (w, h) in [(7, 5), (36, 22), (80, 61), (1, 1)] {
                let out = try Resize(width: w, height: h, mode: .stretch, filter: filter, linearLight: linearLight,
                                     allowsUpscaling: true).transform(source)
                #expect(out.width == w && out.height == h && out.format == format)
                #expect(T.allPixels(out).allSatisfy { $0 == expected }, "\(filter) \(format) \(w)x\(h)")
            }
        }
    }

    /// Pillow's LANCZOS on a smooth opaque gradient, from
    /// Fixtures/transform/generate.py: an independent reference.
    @Test(arguments: [("gradient-64x48-lanczos-20x15.pam", 20, 15), ("gradient-64x48-lanczos-100x75.pam", 100, 75)])
    func lanczosMatchesPillow(reference name: String, width: Int, height: Int) throws {
        let source = try T.fixture("gradient-64x48.pam")
        let reference = try T.fixture(name)
        let out = try Resize(width: width, height: height, mode: .stretch, filter: .lanczos3, allowsUpscaling: true,
                             reducingGap: nil).transform(source)
        #expect(out.width == reference.width && out.height == reference.height)
        #expect(T.maximumDifference(out, reference) <= 2)
    }

    /// The same with an alpha ramp (160…255). Pillow premultiplies into 8 bits
    /// and un-premultiplies with a truncating division, so its colour runs up
    /// to ~3 levels low where alpha is lowest (see generate.py); alpha itself
    /// must match within ±2 and colour within ±4.
    @Test(arguments: [("gradient-alpha-64x48-lanczos-20x15.pam", 20, 15), ("gradient-alpha-64x48-lanczos-100x75.pam", 100, 75)])
    func premultipliedLanczosMatchesPillow(reference name: String, width: Int, height: Int) throws {
        let source = try T.fixture("gradient-alpha-64x48.pam")
        let reference = try T.fixture(name)
        let out = try Resize(width: width, height: height, mode: .stretch, filter: .lanczos3, allowsUpscaling: true,
                             reducingGap: nil).transform(source)
        #expect(out.width == reference.width && out.height == reference.height)
        let pairs = zip(T.allPixels(out), T.allPixels(reference))
        let alphaError = pairs.map { abs(Int($0.w) - Int($1.w)) }.max() ?? 99
        let colourError = pairs.map { p, q in (0..<3).map { abs(Int(p[$0]) - Int(q[$0])) }.max() ?? 99 }.max() ?? 99
        #expect(alphaError <= 2)
        #expect(colourError <= 4)
    }

    /// The integer pattern of `pattern()` in Fixtures/transform/generate.py.
    static func pattern(width: Int, height: Int) -> PixelBuffer {
        var pixels: [SIMD4<UInt8>] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let t = (x * 3 + y) % 64
                let wave = t < 32 ? t * 8 : (63 - t) * 8
                pixels.append(SIMD4(UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8(wave), 255))
            }
        }
        return T.rgba8(width: width, height: height, pixels)
    }

    /// A 10× reduction against Pillow: exact Lanczos within ±2, and the box
    /// pre-reduction path against Pillow's own (`reducing_gap=3`) within ±2 too (both
    /// measured at 1). The two paths differ from each other by up to 14 levels
    /// on this high-frequency pattern: the cost of pre-reduction, as in Pillow.
    @Test func largeReductionMatchesPillow() throws {
        let source = Self.pattern(width: 400, height: 300)
        let exact = try Resize(width: 40, reducingGap: nil).transform(source)
        let fast = try Resize(width: 40).transform(source)
        #expect(T.maximumDifference(exact, try T.fixture("pattern-400x300-lanczos-40x30.pam")) <= 2)
        #expect(T.maximumDifference(fast, try T.fixture("pattern-400x300-lanczos-gap3-40x30.pam")) <= 2)
    }

    @Test func sixteenBitFollowsEightBit() throws {
        let source = try T.fixture("gradient-64x48.pam")
        let out8 = try Resize(width: 20, height: 15, mode: .stretch).transform(source)
        let out16 = try Resize(width: 20, height: 15, mode: .stretch).transform(source.converted(to: .rgba16))
        #expect(out16.format == .rgba16)
        #expect(T.maximumDifference(out16.converted(to: .rgba8), out8) <= 1)
    }

    @Test func boxPreReductionStaysCloseToExactFiltering() throws {
        let source = try T.fixture("gradient-64x48.pam")
        let big = try Resize(width: 640, height: 480, mode: .stretch, filter: .bilinear, allowsUpscaling: true).transform(source)
        for filter in [ResamplingFilter.lanczos3, .mitchell] {
            let fast = try Resize(width: 40, filter: filter).transform(big)
            let exact = try Resize(width: 40, filter: filter, reducingGap: nil).transform(big)
            #expect(fast.width == 40 && fast.height == 30)
            #expect(fast != exact, "a 16× reduction must take the box pre-reduction path")
            #expect(T.maximumDifference(fast, exact) <= 2)
        }
    }

    /// Transparent red beside opaque blue: with premultiplied filtering the
    /// invisible red never shows up in the result.
    @Test(arguments: ResamplingFilter.allCases, [false, true])
    func transparentColourDoesNotBleed(filter: ResamplingFilter, linearLight: Bool) throws {
        let red = SIMD4<UInt8>(255, 0, 0, 0), blue = SIMD4<UInt8>(0, 0, 255, 255)
        let row = Array(repeating: red, count: 8) + Array(repeating: blue, count: 8)
        let source = T.rgba8(width: 16, height: 2, row + row)
        for (w, h) in [(5, 1), (7, 2), (40, 3)] {
            let out = try Resize(width: w, height: h, mode: .stretch, filter: filter, linearLight: linearLight,
                                     allowsUpscaling: true).transform(source)
            let visible = T.allPixels(out).filter { $0.w > 0 }
            #expect(!visible.isEmpty)
            #expect(visible.allSatisfy { $0.x == 0 && $0.y == 0 && $0.z == 255 }, "\(filter) \(w)x\(h): \(visible)")
        }
    }

    @Test func modes() throws {
        // 100×50: left quarter red, middle half green, right quarter blue.
        let pixels = (0..<50).flatMap { _ in
            (0..<100).map { x -> SIMD4<UInt8> in x < 25 ? [255, 0, 0, 255] : x < 75 ? [0, 255, 0, 255] : [0, 0, 255, 255] }
        }
        let source = T.rgba8(width: 100, height: 50, pixels)
        let fit = try Resize(width: 20, height: 20, mode: .fit).transform(source)
        #expect((fit.width, fit.height) == (20, 10))
        let stretch = try Resize(width: 20, height: 20, mode: .stretch).transform(source)
        #expect((stretch.width, stretch.height) == (20, 20))
        #expect(stretch.pixel(x: 0, y: 10) == [255, 0, 0, 255])
        // Fill crops the centre 50×50, which is all green.
        let fill = try Resize(width: 20, height: 20, mode: .fill, filter: .mitchell).transform(source)
        #expect((fill.width, fill.height) == (20, 20))
        #expect(T.allPixels(fill).allSatisfy { $0 == [0, 255, 0, 255] })
        let byWidth = try Resize(width: 30).transform(source)
        #expect((byWidth.width, byWidth.height) == (30, 15))
        let byHeight = try Resize(height: 10).transform(source)
        #expect((byHeight.width, byHeight.height) == (20, 10))
        // Never enlarged unless asked, in every mode.
        #expect(try Resize(width: 400).transform(source) == source)
        #expect(try Resize(width: 400, height: 400, mode: .stretch).transform(source) == source)
        let filled = try Resize(width: 400, height: 400, mode: .fill).transform(source)
        #expect((filled.width, filled.height) == (50, 50), "fill still crops to the box's aspect ratio")
        let upscale = try Resize(width: 400, allowsUpscaling: true).transform(source)
        #expect((upscale.width, upscale.height) == (400, 200))
    }

    /// An orientation-6 photo (EXIF: rotate 90° clockwise to display) is resized as displayed:
    /// upright, its width the target width; the `.resize` shorthand never enlarges unless asked.
    @Test func resizingAppliesTheOrientationFirstAndNeverEnlarges() throws {
        // 40×20, left half red, right half blue; displayed 20×40 with red on top.
        let pixels = (0..<20).flatMap { _ in (0..<40).map { x -> SIMD4<UInt8> in x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        var image = Image(pixels: T.rgba8(width: 40, height: 20, pixels), format: .jpeg)
        image.metadata.orientation = .right
        let small = try Resize(width: 10).transform(image)
        #expect((small.width, small.height) == (10, 20))
        #expect(small.metadata.orientation == .up)
        #expect(small.pixels.pixel(x: 5, y: 2) == [255, 0, 0, 255])
        #expect(small.pixels.pixel(x: 5, y: 17) == [0, 0, 255, 255])
        let shorthand: Resize = .resize(width: 256)
        let same = try shorthand.transform(image)
        #expect((same.width, same.height) == (20, 40))
        let larger: Resize = .resize(width: 40, allowsUpscaling: true)
        #expect(try larger.transform(image).width == 40)
        let unoriented = try Resize(width: 10, appliesOrientation: false).transform(image)
        #expect((unoriented.width, unoriented.height) == (10, 5) && unoriented.metadata.orientation == .right)
    }

    @Test func everyFrameOfAnAnimationIsResized() throws {
        let frames = [SIMD4<UInt8>(255, 0, 0, 255), [0, 0, 255, 128]].enumerated().map { index, colour in
            ImageFrame(pixels: T.constant(width: 40, height: 20, colour), duration: .milliseconds(10 * (index + 1)))
        }
        let image = Image(frames: frames, loopCount: 0, format: .gif)
        let out = try Resize(width: 10).transform(image)
        #expect(out.frames.count == 2 && out.loopCount == 0 && out.format == .gif)
        #expect(out.frames.map(\.duration) == [.milliseconds(10), .milliseconds(20)])
        #expect(out.frames[0].pixels == T.constant(width: 10, height: 5, [255, 0, 0, 255]))
        #expect(out.frames[1].pixels == T.constant(width: 10, height: 5, [0, 0, 255, 128]))
    }

    @Test func allFramesMustFitTheByteBudgetTogether() throws {
        let frames = (0..<5).map { _ in ImageFrame(pixels: T.constant(width: 10, height: 5, [1, 2, 3, 255])) }
        let image = Image(frames: frames, loopCount: 0, format: .gif)
        var limits = DecodingLimits()
        limits.maxTotalBytes = 100 * 50 * 4 * 3 // room for three enlarged frames, not five
        #expect(throws: TransformError.limitExceeded(.totalBytes)) {
            try Resize(width: 100, allowsUpscaling: true, limits: limits).transform(image)
        }
        limits.maxTotalBytes = 100 * 50 * 4 * 5
        #expect(try Resize(width: 100, allowsUpscaling: true, limits: limits).transform(image).frames.count == 5)
        limits.maxTotalBytes = 11 * 11 * 4 * 4 // 45° turns 10×5 into 11×11
        #expect(throws: TransformError.limitExceeded(.totalBytes)) {
            try ImageTransformers.Rotate(degrees: 45, limits: limits).transform(image)
        }
    }

    @Test func badParametersAreTypedErrors() throws {
        let source = T.constant(width: 8, height: 8, [1, 2, 3, 255])
        for resize in [Resize(width: 0), Resize(width: -5), Resize(height: 0), Resize(width: 10, height: -1),
                       Resize(), Resize(width: 4, reducingGap: 0.5), Resize(width: 4, reducingGap: .nan)] {
            let error = #expect(throws: TransformError.self) { try resize.transform(source) }
            guard case .invalidParameter = error else { Issue.record("\(resize.cacheKey): \(String(describing: error))"); continue }
        }
        #expect(throws: TransformError.limitExceeded(.width)) { try Resize(width: 1 << 40, allowsUpscaling: true).transform(source) }
        #expect(throws: TransformError.limitExceeded(.height)) {
            try Resize(width: 8, height: Int.max, mode: .stretch, allowsUpscaling: true).transform(source)
        }
        #expect(throws: TransformError.limitExceeded(.width)) { try Resize(height: 100_000, allowsUpscaling: true).transform(source) }
        // Without enlarging, a huge target leaves the image as it is.
        #expect(try Resize(width: 1 << 40).transform(source) == source)
        var small = DecodingLimits()
        small.maxPixelsPerFrame = 1000
        #expect(throws: TransformError.limitExceeded(.pixelsPerFrame)) {
            try Resize(width: 100, allowsUpscaling: true, limits: small).transform(source)
        }
        #expect(throws: TransformError.emptyImage) { try Resize(width: 4).transform(PixelBuffer(width: 0, height: 0)) }
    }
}
