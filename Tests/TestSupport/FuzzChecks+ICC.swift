import GlimpseCodec

extension FuzzChecks {
    /// Profile limits for one fuzz input: CLUTs of at most 2^18 samples (a 33^3 RGB grid is
    /// 107,811; a 17^4 CMYK grid 250,563), so that building a transform stays well under a
    /// second and a few MiB.
    static let iccLimits: ICC.Limits = {
        var limits = ICC.Limits()
        limits.maximumProfileBytes = 1 << 20
        limits.maximumGridSamples = 1 << 18
        limits.maximumCurveEntries = 4096
        return limits
    }()

    /// Parses the input as an ICC profile, builds its transform to sRGB for both intents and
    /// runs it on every kind of buffer it takes: an RGBA8 and an RGBA16 ramp (RGB and grey
    /// sources), or a CMYK ramp (CMYK sources), and the exact double-precision path. A typed
    /// error is fine; the output must keep its size and alpha, and exact values must be finite
    /// and within 0…1.
    ///
    /// The profile is also used as a destination (from sRGB; its `B2Ax` LUT, inverted TRCs or
    /// `kTRC`), with the same checks.
    static func convertThroughProfile(_ bytes: [UInt8]) -> String? {
        guard let profile = try? ICC.Profile(parsing: bytes, limits: iccLimits) else { return nil }
        let sRGB = try? ICC.Profile(parsing: ICCProfileBuilder.sRGB.build())
        for intent in [ICC.RenderingIntent.perceptual, .relativeColorimetric] {
            if let transform = try? ColorTransform(source: profile, intent: intent), let failure = check(transform) {
                return failure
            }
            if let sRGB, let transform = try? ColorTransform(source: sRGB, destination: profile, intent: intent),
               let failure = check(transform) {
                return "as a destination: \(failure)"
            }
        }
        return nil
    }

    /// Runs `transform` on the buffers it takes and its exact path; the failure, if any.
    private static func check(_ transform: ColorTransform) -> String? {
        if transform.input == .cmyk {
            var cmyk = [UInt8]()
            for i in 0..<256 {
                let level = UInt8(i)
                cmyk += [level, 255 - level, level &* 7, level / 2]
            }
            var rgba = [UInt8](repeating: 1, count: cmyk.count)
            cmyk.withUnsafeBufferPointer { source in
                rgba.withUnsafeMutableBufferPointer { transform.convertCMYK(source, into: $0) }
            }
            if stride(from: 3, to: rgba.count, by: 4).contains(where: { rgba[$0] != 255 }) {
                return "CMYK conversion left alpha other than opaque"
            }
        } else {
            for format in [PixelFormat.rgba8, .rgba16] {
                var pixels = PixelBuffer(width: 16, height: 16, format: format)
                let samples = pixels.bytes.count
                for i in 0..<samples { pixels.bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ i >> 6) }
                let before = pixels
                transform.apply(to: &pixels)
                guard pixels.bytes.count == samples, pixels.format == format else { return "conversion changed the buffer's size" }
                let step = format.bytesPerSample
                for pixel in stride(from: 0, to: samples, by: 4 * step) {
                    for b in 0..<step where pixels.bytes[pixel + 3 * step + b] != before.bytes[pixel + 3 * step + b] {
                        return "conversion changed alpha (\(format))"
                    }
                }
            }
        }
        let channels = transform.input == .cmyk ? 4 : transform.input == .gray ? 1 : 3
        for level in [0.0, 0.25, 0.5, 1.0] {
            let value = transform.convert([Double](repeating: level, count: channels))
            let components = [value.x, value.y, value.z]
            if !components.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) {
                return "exact conversion of \(level) gave \(components)"
            }
        }
        return nil
    }
}
