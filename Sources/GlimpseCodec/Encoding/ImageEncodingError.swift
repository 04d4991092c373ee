/// Why an image cannot be encoded; permanent for the same image and options.
public enum ImageEncodingError: Error, Sendable, Hashable, ImageEncodingFailure {
    /// No encoder is registered for the format.
    case unsupportedFormat(ImageFormat)
    /// The image has no pixels, or its frames differ in size or layout.
    case invalidImage(String)
    /// The format cannot store an image of this size (JPEG and GIF: at most
    /// 65 535 pixels a side, ITU T.81 §B.2.2, GIF89a §18).
    case unsupportedSize(width: Int, height: Int)
    /// An option is out of range (a JPEG quality outside 1…100, a negative
    /// restart interval…).
    case invalidOptions(String)
    /// The requested layout would lose information (PNG: a palette for more
    /// than 256 colours, grey for a colour image…).
    case layoutLosesInformation

    public var imageEncodingError: ImageEncodingError { self }
}
