extension GIF.Encoder: ImageEncoder {
    /// Writes GIF89a with every frame.
    public static var format: ImageFormat { .gif }

    /// The per-format override, or the defaults (GIF carries no metadata that
    /// Glimpse writes).
    public static func options(from options: EncodingOptions) -> Options {
        options.gif ?? Options()
    }
}

extension GIF.Encoder.Error: ImageEncodingFailure {
    public var imageEncodingError: ImageEncodingError {
        switch self {
        case .noFrames: .invalidImage("no frames")
        case .unsupportedSize(let width, let height): .unsupportedSize(width: width, height: height)
        case .frameSizeMismatch(let index): .invalidImage("frame \(index) differs in size from the first")
        }
    }
}
