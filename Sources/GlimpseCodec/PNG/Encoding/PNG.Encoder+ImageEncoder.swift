extension PNG.Encoder: ImageEncoder {
    /// Writes still PNG: the first frame (``PNG/AnimationEncoder`` writes every frame).
    public static var format: ImageFormat { .png }

    /// The per-format override, or the defaults with metadata chunks unless the
    /// policy is ``EncodingOptions/MetadataPolicy/none`` (PNG's metadata chunks
    /// are written together; the ICC-only policy keeps them all).
    public static func options(from options: EncodingOptions) -> Options {
        options.png ?? Options(writesMetadata: options.metadata != .none)
    }
}

extension PNG.Encoder.EncodingError: ImageEncodingFailure {
    public var imageEncodingError: ImageEncodingError {
        switch self {
        case .colorModeLosesInformation: .layoutLosesInformation
        case .invalidImage(let reason): .invalidImage(reason)
        }
    }
}
