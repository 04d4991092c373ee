/// What is known of an image once its header has been parsed, before any
/// pixel memory is allocated.
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    /// Canvas width in pixels (after any scaling the options asked for).
    public var width: Int
    /// Canvas height in pixels (after any scaling the options asked for).
    public var height: Int
    /// Number of frames when the header declares it (APNG `acTL`, 1 for still
    /// formats); `nil` when only the whole file tells (GIF).
    public var frameCount: Int?
    /// Whether the image is (or declares itself) an animation.
    public var isAnimated: Bool
    /// Bits per sample in the source (1…16), when the format says.
    public var bitDepth: Int?
    /// Whether the source may carry transparency.
    public var hasAlpha: Bool
    /// What the header already told of orientation, profile, density.
    public var metadata: ImageMetadata

    public init(format: ImageFormat, width: Int, height: Int, frameCount: Int? = 1, isAnimated: Bool = false,
                bitDepth: Int? = nil, hasAlpha: Bool = false, metadata: ImageMetadata = ImageMetadata()) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.isAnimated = isAnimated
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.metadata = metadata
    }
}
