extension WebP.Encoder: ImageEncoder {
    public static var format: ImageFormat { .webp }

    /// The per-format override, or lossy at the options' quality (75 by default,
    /// as `cwebp`) with the metadata the policy keeps (as the JPEG encoder maps it).
    public static func options(from options: EncodingOptions) -> Options {
        if let webp = options.webp { return webp }
        let metadata: Metadata
        switch options.metadata {
        case .none: metadata = []
        case .iccProfile: metadata = [.iccProfile]
        case .all: metadata = .all
        }
        return Options(quality: min(max(options.quality, 0), 100), metadata: metadata)
    }
}

extension WebP.Encoder.EncodingError: ImageEncodingFailure {
    public var imageEncodingError: ImageEncodingError {
        switch self {
        case .invalidImage(let reason): .invalidImage(reason)
        case .unsupportedSize(let width, let height): .unsupportedSize(width: width, height: height)
        case .invalidOptions(let reason): .invalidOptions(reason)
        }
    }
}
