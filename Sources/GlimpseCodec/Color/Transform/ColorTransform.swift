/// Converts pixels described by an ICC profile to sRGB, the way LittleCMS 2
/// converts them to its built-in sRGB profile (`cmsCreate_sRGBProfile`), or to
/// another RGB or grey profile, the way LittleCMS links two profiles.
///
/// Matrix/TRC RGB to matrix/TRC RGB runs through precomputed linearisation tables
/// and one fixed-point matrix; every other pair (grey, CMYK and LUT-based sources,
/// grey and `B2Ax` destinations) is resampled into one CLUT of destination values
/// (ICC.1:2022 §8.3 names the two kinds of profile). A source already in the
/// destination's colour space — sRGB to sRGB recognised by colorants and curves,
/// not by name, or the same profile on both sides — is an identity and costs nothing.
///
/// ```swift
/// let profile = try ICC.Profile(parsing: iccBytes)
/// let transform = try ColorTransform(source: profile)
/// transform.apply(to: &image.pixels)
/// let toP3 = try ColorTransform(source: profile, destination: try ICC.Profile(parsing: p3Bytes))
/// ```
public struct ColorTransform: Sendable {
    /// The device colour space a transform reads.
    public enum Input: Sendable, Hashable {
        /// Red, green, blue samples.
        case rgb
        /// One grey sample; in RGBA buffers the red sample is read (decoders write R = G = B).
        case gray
        /// Cyan, magenta, yellow, black, 0 = no ink (not Adobe's inverted storage).
        case cmyk
    }

    enum Kernel: Sendable {
        case identity
        /// `measuresGamma` says whether 16-bit pixels may skip the resampled grid LittleCMS's
        /// 16-bit transforms use, for a source of gamma below 1.6 (measured when a 16-bit buffer comes).
        case matrixShaper(MatrixShaper, measuresGamma: Bool)
        case grid(SampledGrid)
    }

    /// What the transform reads.
    public let input: Input
    /// The intent it was built for.
    public let intent: ICC.RenderingIntent
    /// Whether it writes one grey value (repeated in R, G and B) rather than RGB.
    public var writesGray: Bool { pipeline.destination.channels == 1 }
    let pipeline: Pipeline
    let kernel: Kernel

    /// Whether the source is in the destination's colour space already, so ``apply(to:)`` leaves pixels as they are.
    public var isIdentity: Bool {
        if case .identity = kernel { return true }
        return false
    }

    /// Builds the conversion from `source` to sRGB for `intent` (perceptual by default,
    /// as browsers and LittleCMS users use it).
    public init(source: ICC.Profile, intent: ICC.RenderingIntent = .perceptual) throws(ColorTransformError) {
        try self.init(source: source, destination: .sRGB, intent: intent, neutralBlackPoint: true)
    }

    /// Builds the conversion from `source` to the RGB or grey profile `destination` for
    /// `intent`, through the destination's `B2Ax` LUT when it has one and its inverted
    /// matrix/TRC or `kTRC` otherwise (ICC.1:2022 §8.3, Annex F.3). Black points are
    /// compensated for perceptual and saturation when either profile is version 4, as
    /// LittleCMS does. A destination that is sRGB by its colorants and curves gives
    /// exactly the transform of ``init(source:intent:)``.
    ///
    /// - Throws: ``ColorTransformError`` when either profile cannot be used that way
    ///   (a CMYK or Lab destination, missing tags, a singular colorant matrix).
    public init(source: ICC.Profile, destination: ICC.Profile, intent: ICC.RenderingIntent = .perceptual)
        throws(ColorTransformError) {
        let output = try Destination(profile: destination, intent: intent)
        if source == destination, source.colorSpace == destination.colorSpace {
            try self.init(identity: source, destination: output, intent: intent)
        } else {
            try self.init(source: source, destination: output.isSRGB ? .sRGB : output, intent: intent, neutralBlackPoint: true)
        }
    }

    private init(identity source: ICC.Profile, destination: Destination, intent: ICC.RenderingIntent) throws(ColorTransformError) {
        pipeline = try Pipeline(profile: source, destination: destination, intent: intent)
        self.intent = intent
        input = source.deviceChannels == 1 ? .gray : .rgb
        kernel = .identity
    }

    /// `neutralBlackPoint` false reproduces LittleCMS 2.18–2.19's black point (see ``Pipeline``), for tests against them.
    init(source: ICC.Profile, destination: Destination = .sRGB, intent: ICC.RenderingIntent,
         neutralBlackPoint: Bool) throws(ColorTransformError) {
        pipeline = try Pipeline(profile: source, destination: destination, intent: intent, neutralBlackPoint: neutralBlackPoint)
        self.intent = intent
        switch pipeline.channels {
        case 1: input = .gray
        case 4: input = .cmyk
        default: input = .rgb
        }
        switch pipeline.source {
        case .matrixShaper(let colorants, let curves):
            guard colorants.inverse != nil else { throw .singularMatrix }
            if destination.isSRGB, SRGB.matches(source) {
                kernel = .identity
            } else if let shaper = MatrixShaper(pipeline: pipeline, colorants: colorants, curves: curves) {
                kernel = .matrixShaper(shaper, measuresGamma: ColorTransform.measuresGamma(source))
            } else {
                kernel = .grid(SampledGrid(pipeline: pipeline))
            }
        case .gray, .lut:
            kernel = .grid(SampledGrid(pipeline: pipeline))
        }
    }

    /// The exact double-precision conversion of one colour (each device value 0…1)
    /// to the destination's device values 0…1 (grey repeated in all three), without
    /// the fast kernels' table quantisation.
    public func convert(_ device: [Double]) -> SIMD3<Double> {
        guard device.count >= pipeline.channels else { return .zero }
        return pipeline.evaluate(device)
    }

    /// Converts an RGBA buffer in place (alpha untouched) for RGB and grey sources.
    /// A CMYK transform leaves the buffer as it is: use ``convertCMYK(_:into:)``.
    public func apply(to pixels: inout PixelBuffer) {
        guard input != .cmyk else { return }
        let count = pixels.pixelCount
        switch (kernel, pixels.format) {
        case (.identity, _):
            return
        case (.matrixShaper(let shaper, _), .rgba8):
            pixels.bytes.withUnsafeMutableBufferPointer { buffer in
                // The buffer holds pixelCount × 4 bytes by PixelBuffer's invariant.
                guard let base = buffer.baseAddress else { return }
                shaper.apply8(base, count: count)
            }
        case (.matrixShaper(let shaper, let measuresGamma), .rgba16):
            guard measuresGamma, ColorTransform.isLowGamma(pipeline) else {
                apply16(SampledGrid(pipeline: pipeline), &pixels)
                return
            }
            pixels.bytes.withUnsafeMutableBytes { raw in
                // rgba16 buffers hold pixelCount × 4 UInt16 samples, 2-byte aligned from the allocator.
                guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt16.self) else { return }
                shaper.apply16(base, count: count)
            }
        case (.grid(let grid), .rgba8):
            apply8(grid, &pixels)
        case (.grid(let grid), .rgba16):
            apply16(grid, &pixels)
        }
    }

    private func apply8(_ grid: SampledGrid, _ pixels: inout PixelBuffer) {
        let count = pixels.pixelCount
        let scale = Float(grid.points - 1) / 255
        // Grey has only 256 possible inputs: tabulate them once.
        var table = [SIMD3<UInt8>]()
        grid.samples.withUnsafeBufferPointer { s in
            guard let samples = s.baseAddress else { return }
            if input == .gray {
                table = (0...255).map { code in
                    let v = grid.interpolate(samples, SIMD4(Float(code) * scale, 0, 0, 0))
                    return SIMD3(SampledGrid.code8(v.x), SampledGrid.code8(v.y), SampledGrid.code8(v.z))
                }
            }
            pixels.bytes.withUnsafeMutableBufferPointer { buffer in
                for i in 0..<count {
                    let p = i &* 4
                    if input == .gray {
                        let rgb = table[Int(buffer[p])]
                        buffer[p] = rgb.x; buffer[p + 1] = rgb.y; buffer[p + 2] = rgb.z
                    } else {
                        let position = SIMD4(Float(buffer[p]), Float(buffer[p + 1]), Float(buffer[p + 2]), 0) * scale
                        let v = grid.interpolate(samples, position)
                        buffer[p] = SampledGrid.code8(v.x); buffer[p + 1] = SampledGrid.code8(v.y); buffer[p + 2] = SampledGrid.code8(v.z)
                    }
                }
            }
        }
    }

    /// 16-bit pixels through the grid with LittleCMS's fixed-point interpolation
    /// (``SampledGrid/interpolate16(_:_:into:)``), so results equal its 16-bit transforms'
    /// for the same grid nodes.
    private func apply16(_ grid: SampledGrid, _ pixels: inout PixelBuffer) {
        let count = pixels.pixelCount
        let gray = input == .gray
        grid.samples.withUnsafeBufferPointer { s in
            guard let samples = s.baseAddress else { return }
            pixels.bytes.withUnsafeMutableBytes { raw in
                // rgba16 buffers hold pixelCount × 4 UInt16 samples.
                guard let p = raw.baseAddress?.assumingMemoryBound(to: UInt16.self) else { return }
                for i in 0..<count {
                    let q = p + i &* 4
                    let position = gray ? SIMD3(Int32(q[0]), 0, 0) : SIMD3(Int32(q[0]), Int32(q[1]), Int32(q[2]))
                    grid.interpolate16(samples, position, into: q)
                }
            }
        }
    }

    /// Converts interleaved 8-bit CMYK (4 bytes a pixel, 0 = no ink) to RGBA8 with
    /// opaque alpha, `min(cmyk.count / 4, rgba.count / 4)` pixels. Non-CMYK transforms write nothing.
    public func convertCMYK(_ cmyk: UnsafeBufferPointer<UInt8>, into rgba: UnsafeMutableBufferPointer<UInt8>) {
        guard let source = cmyk.baseAddress, let destination = rgba.baseAddress else { return }
        convertCMYK(source, destination, count: min(cmyk.count / 4, rgba.count / 4))
    }

    /// Converts CMYK stored in the four bytes of each RGBA8 pixel to RGBA8 in place
    /// (what a JPEG decoder renders for a CMYK profile to convert).
    public func convertCMYK(inPlace pixels: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = pixels.baseAddress else { return }
        convertCMYK(base, base, count: pixels.count / 4)
    }

    /// `source` and `destination` may be the same memory: each pixel's four bytes are read before any is written.
    private func convertCMYK(_ cmyk: UnsafePointer<UInt8>, _ rgba: UnsafeMutablePointer<UInt8>, count: Int) {
        guard input == .cmyk, case .grid(let grid) = kernel else { return }
        let scale = Float(grid.points - 1) / 255
        grid.samples.withUnsafeBufferPointer { s in
            guard let samples = s.baseAddress else { return }
            for i in 0..<count {
                let p = i &* 4
                let position = SIMD4(Float(cmyk[p]), Float(cmyk[p + 1]), Float(cmyk[p + 2]), Float(cmyk[p + 3])) * scale
                let v = grid.interpolate(samples, position)
                rgba[p] = SampledGrid.code8(v.x); rgba[p + 1] = SampledGrid.code8(v.y); rgba[p + 2] = SampledGrid.code8(v.z)
                rgba[p + 3] = 255
            }
        }
    }
}
