// Leading-dot spellings for APIs that take `some ImageTransformer`, e.g.
// `pipeline.load(url, transformer: .resize(width: 256))`.

extension ImageTransformer where Self == ImageTransformers.Resize {
    /// ``ImageTransformers/Resize`` with its defaults (Lanczos-3, gamma space, box pre-reduction gap 3,
    /// EXIF orientation applied first, never enlarging unless `allowsUpscaling`).
    public static func resize(width: Int? = nil, height: Int? = nil, mode: ImageTransformers.Resize.Mode = .fit,
                              filter: ResamplingFilter = .lanczos3, allowsUpscaling: Bool = false) -> Self {
        ImageTransformers.Resize(width: width, height: height, mode: mode, filter: filter, allowsUpscaling: allowsUpscaling)
    }
}

extension ImageTransformer where Self == ImageTransformers.Crop {
    public static func crop(x: Int, y: Int, width: Int, height: Int) -> Self {
        ImageTransformers.Crop(x: x, y: y, width: width, height: height)
    }
}

extension ImageTransformer where Self == ImageTransformers.Flip {
    public static func flip(_ axis: ImageTransformers.Flip.Axis) -> Self { ImageTransformers.Flip(axis) }
}

extension ImageTransformer where Self == ImageTransformers.Rotate {
    public static func rotate(degrees: Double) -> Self { ImageTransformers.Rotate(degrees: degrees) }
}

extension ImageTransformer where Self == ImageTransformers.AutoOrient {
    public static var autoOrient: Self { ImageTransformers.AutoOrient() }
}

extension ImageTransformer where Self == ImageTransformers.RoundedCorners {
    public static func roundedCorners(radius: Double) -> Self { ImageTransformers.RoundedCorners(radius: radius) }
}

extension ImageTransformer where Self == ImageTransformers.Tint {
    public static func tint(red: UInt8, green: UInt8, blue: UInt8, intensity: Double = 1) -> Self {
        ImageTransformers.Tint(red: red, green: green, blue: blue, intensity: intensity)
    }
}

extension ImageTransformer where Self == ImageTransformers.GaussianBlur {
    public static func gaussianBlur(sigma: Double) -> Self { ImageTransformers.GaussianBlur(sigma: sigma) }
}

extension ImageTransformer where Self == ImageTransformers.Composition {
    public static func composition(_ transformers: any ImageTransformer...) -> Self {
        ImageTransformers.Composition(transformers)
    }
}
