import GlimpseCodec
import Testing

/// Extreme parameters on degenerate images: every combination must either
/// succeed with a well-formed buffer or throw a ``TransformError`` — a trap
/// would end the test run.
@Suite("Transform: extreme parameters never crash")
struct TransformRobustnessTests {
    typealias X = ImageTransformers

    static let transformers: [any ImageTransformer] = {
        var list: [any ImageTransformer] = []
        for size in [1, 2, 3, 7, 1 << 20, Int.max] {
            for mode in X.Resize.Mode.allCases {
                for filter in ResamplingFilter.allCases {
                    list.append(X.Resize(width: size, height: 3, mode: mode, filter: filter, allowsUpscaling: true))
                    list.append(X.Resize(width: size, height: 3, mode: mode, filter: filter))
                    list.append(X.Resize(width: 1, height: size, mode: mode, filter: filter, linearLight: true,
                                         allowsUpscaling: true, reducingGap: 1))
                }
            }
        }
        for degrees in [0.001, -0.001, 45, 89.999, 90.000001, 1e10, -1e-300, 359.9999999, .greatestFiniteMagnitude, .infinity] {
            list.append(X.Rotate(degrees: degrees))
        }
        for radius in [0.1, 0.5, 1, 1e300, .infinity, .nan] { list.append(X.RoundedCorners(radius: radius)) }
        for sigma in [1e-9, 0.01, 4, 4.0001, 120, 500] {
            list.append(X.GaussianBlur(sigma: sigma))
            list.append(X.GaussianBlur(sigma: sigma, method: .boxCascade))
        }
        for intensity in [-0.0, 1e-300, 1, .nan] { list.append(X.Tint(red: 255, green: 255, blue: 255, intensity: intensity)) }
        for (x, y, w, h) in [(0, 0, 1, 1), (1, 0, 1, 1), (0, 0, Int.max, Int.max), (Int.min, 0, 1, 1), (0, Int.max, 1, 1)] {
            list.append(X.Crop(x: x, y: y, width: w, height: h))
        }
        list.append(X.Flip(.horizontal))
        list.append(X.Flip(.vertical))
        list.append(X.AutoOrient())
        return list
    }()

    @Test(arguments: [(1, 1), (1, 9), (9, 1), (5, 4)], PixelFormat.allCases)
    func everyTransformerOnTinyImages(size: (Int, Int), format: PixelFormat) {
        let (width, height) = size
        var bytes: [UInt8] = []
        for i in 0..<(width * height * 4) { bytes.append(UInt8(truncatingIfNeeded: i &* 37 &+ 11)) }
        let pixels = PixelBuffer(width: width, height: height, bytes: bytes)!.converted(to: format)
        var metadata = ImageMetadata()
        metadata.orientation = .rightMirrored
        let image = Image(frames: [ImageFrame(pixels: pixels), ImageFrame(pixels: pixels)], loopCount: 0,
                          format: .gif, metadata: metadata)
        for transformer in Self.transformers {
            do {
                let out = try transformer.transform(image)
                for frame in out.frames {
                    let p = frame.pixels
                    #expect(p.width > 0 && p.height > 0 && p.format == format)
                    #expect(p.bytes.count == p.width * p.height * format.bytesPerPixel, "\(transformer.cacheKey)")
                }
            } catch {
                // A typed refusal is a correct answer for these parameters.
                _ = error.description
            }
        }
    }
}
