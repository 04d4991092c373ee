import GlimpseCodec
import Testing

@Suite("Transform: cache keys")
struct CacheKeyTests {
    typealias X = ImageTransformers

    static var variety: [any ImageTransformer] {
        [
            X.Resize(width: 256), X.Resize(width: 255), X.Resize(height: 256), X.Resize(width: 256, height: 256),
            X.Resize(width: 256, height: 256, mode: .fill), X.Resize(width: 256, height: 256, mode: .stretch),
            X.Resize(width: 256, filter: .mitchell), X.Resize(width: 256, filter: .bilinear), X.Resize(width: 256, filter: .box),
            X.Resize(width: 256, linearLight: true), X.Resize(width: 256, allowsUpscaling: true),
            X.Resize(width: 256, reducingGap: nil), X.Resize(width: 256, reducingGap: 2),
            X.Crop(x: 0, y: 0, width: 10, height: 10), X.Crop(x: 1, y: 0, width: 10, height: 10),
            X.Crop(x: 0, y: 1, width: 10, height: 10), X.Crop(x: 0, y: 0, width: 11, height: 10),
            X.Flip(.horizontal), X.Flip(.vertical),
            X.Rotate(degrees: 90), X.Rotate(degrees: 45), X.Rotate(degrees: 45.5),
            X.AutoOrient(),
            X.RoundedCorners(radius: 8), X.RoundedCorners(radius: 8.5),
            X.Tint(red: 1, green: 2, blue: 3), X.Tint(red: 1, green: 2, blue: 3, intensity: 0.5), X.Tint(red: 3, green: 2, blue: 1),
            X.GaussianBlur(sigma: 1), X.GaussianBlur(sigma: 2), X.GaussianBlur(sigma: 2, method: .exact),
            X.GaussianBlur(sigma: 2, method: .boxCascade),
            X.Composition(X.AutoOrient(), X.Resize(width: 256)), X.Composition(X.Resize(width: 256), X.AutoOrient()),
        ]
    }

    @Test func keysDifferWhenParametersDiffer() {
        let keys = Self.variety.map(\.cacheKey)
        #expect(Set(keys).count == keys.count, "\(keys)")
    }

    @Test func keysAreStable() {
        // Literal expectations: a changed format would orphan every cached variant.
        #expect(X.Resize(width: 256).cacheKey == "resize(256x_,fit,lanczos3,linear=0,upscale=0,gap=3.0,orient)")
        #expect(X.Resize(width: 64, height: 32, mode: .fill, filter: .mitchell, linearLight: true,
                         allowsUpscaling: false, reducingGap: nil).cacheKey
                == "resize(64x32,fill,mitchell,linear=1,upscale=0,gap=exact,orient)")
        #expect(X.Crop(x: 1, y: 2, width: 3, height: 4).cacheKey == "crop(1,2,3x4)")
        #expect(X.Flip(.vertical).cacheKey == "flip(vertical)")
        #expect(X.Rotate(degrees: -90).cacheKey == "rotate(270.0)")
        #expect(X.Rotate(degrees: 720).cacheKey == "rotate(0.0)")
        #expect(X.AutoOrient().cacheKey == "orient")
        #expect(X.RoundedCorners(radius: 12).cacheKey == "corners(12.0)")
        #expect(X.Tint(red: 255, green: 128, blue: 0, intensity: 0.25).cacheKey == "tint(255,128,0,0.25)")
        #expect(X.GaussianBlur(sigma: 1.5).cacheKey == "blur(1.5)")
        #expect(X.GaussianBlur(sigma: 8, method: .boxCascade).cacheKey == "blur(8.0,boxCascade)")
        #expect(X.Composition(X.AutoOrient(), X.Resize(width: 10), X.GaussianBlur(sigma: 2)).cacheKey
                == "orient|resize(10x_,fit,lanczos3,linear=0,upscale=0,gap=3.0,orient)|blur(2.0)")
        // Limits never change a successful result, so they are not part of the key.
        var limits = DecodingLimits()
        limits.maxWidth = 100
        #expect(X.Resize(width: 256, limits: limits).cacheKey == X.Resize(width: 256).cacheKey)
        // The same value gives the same key every time.
        #expect(Self.variety.map(\.cacheKey) == Self.variety.map(\.cacheKey))
    }

    @Test func shorthandsBuildTheSameTransformers() {
        func key(_ transformer: some ImageTransformer) -> String { transformer.cacheKey }
        #expect(key(.resize(width: 256)) == X.Resize(width: 256, allowsUpscaling: false).cacheKey)
        #expect(key(.crop(x: 1, y: 2, width: 3, height: 4)) == "crop(1,2,3x4)")
        #expect(key(.flip(.horizontal)) == "flip(horizontal)")
        #expect(key(.rotate(degrees: 90)) == "rotate(90.0)")
        #expect(key(.autoOrient) == "orient")
        #expect(key(.roundedCorners(radius: 4)) == "corners(4.0)")
        #expect(key(.tint(red: 1, green: 2, blue: 3)) == "tint(1,2,3,1.0)")
        #expect(key(.gaussianBlur(sigma: 3)) == "blur(3.0)")
        #expect(key(.composition(X.AutoOrient(), X.Flip(.vertical))) == "orient|flip(vertical)")
    }

    @Test func compositionAppliesStepsInOrderToEveryFrame() throws {
        var metadata = ImageMetadata()
        metadata.orientation = .right
        let pixels = TransformTestImages.labelled(width: 3, height: 2)
        let image = Image(frames: [ImageFrame(pixels: pixels), ImageFrame(pixels: pixels)], loopCount: 0,
                          format: .gif, metadata: metadata)
        let out = try X.Composition(X.AutoOrient(), X.Crop(x: 0, y: 0, width: 2, height: 1)).transform(image)
        #expect(out.metadata.orientation == .up)
        for frame in out.frames { #expect(TransformTestImages.labels(frame.pixels) == [[4, 1]]) }
        #expect(try X.Composition([]).transform(image) == image)
    }

    @Test func inconsistentBuffersAreRefusedByEveryTransformer() {
        var broken = TransformTestImages.constant(width: 4, height: 4, [1, 2, 3, 255])
        broken.bytes.removeLast(5)
        var metadata = ImageMetadata()
        metadata.orientation = .left
        for transformer in Self.variety + [X.Resize(width: 4, height: 4, mode: .fill)] {
            let error = #expect(throws: TransformError.self, "\(transformer.cacheKey)") {
                try transformer.transform(Image(pixels: broken, format: .png, metadata: metadata))
            }
            guard case .invalidParameter = error else { Issue.record("\(transformer.cacheKey): \(String(describing: error))"); continue }
        }
    }
}
