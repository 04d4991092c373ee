/// Format-independent encoding settings, for code that picks the output format
/// at run time (``EncoderRegistry/encode(_:as:options:)``): a quality for lossy
/// formats, which metadata to keep, the colour policy, and optional per-format
/// overrides that replace the quality and metadata settings for their format.
public struct EncodingOptions: Sendable, Hashable {
    /// Which of the image's metadata is written.
    public enum MetadataPolicy: Sendable, Hashable {
        /// Nothing besides what the format requires (JPEG still writes JFIF).
        case none
        /// The ICC profile only, so colours display as intended.
        case iccProfile
        /// Everything the format can carry: ICC profile, EXIF orientation, density…
        case all
    }

    /// Quality of lossy formats, 1 (smallest) … 100 (best); JPEG scales the
    /// ITU T.81 Annex K tables by it as libjpeg does. Lossless formats ignore it.
    /// Default 75, libjpeg's and cjpeg's default.
    public var quality: Int
    /// Default ``MetadataPolicy/iccProfile``.
    public var metadata: MetadataPolicy
    /// What happens to the image's colours before encoding (default ``ColorPolicy/preserve``:
    /// pixels as they are, and the profile the image carries written). A converting policy
    /// converts a copy of the pixels first (``ColorPolicy/apply(to:)``), and the written
    /// profile follows it: none after ``ColorPolicy/convertToSRGB`` (as image proxies write
    /// thumbnails), the destination after ``ColorPolicy/convert(to:intent:)``. It applies
    /// with per-format overrides too; whether a profile is written at all stays
    /// ``metadata``'s (or the override's) choice.
    public var colorPolicy: ColorPolicy
    /// When set, used as is for JPEG output (``quality`` and ``metadata`` are ignored).
    public var jpeg: JPEG.EncodingOptions?
    /// When set, used as is for PNG and APNG output.
    public var png: PNG.Encoder.Options?
    /// When set, used as is for GIF output.
    public var gif: GIF.Encoder.Options?
    /// When set, used as is for WebP output.
    public var webp: WebP.Encoder.Options?

    public init(quality: Int = 75, metadata: MetadataPolicy = .iccProfile, colorPolicy: ColorPolicy = .preserve,
                jpeg: JPEG.EncodingOptions? = nil, png: PNG.Encoder.Options? = nil, gif: GIF.Encoder.Options? = nil,
                webp: WebP.Encoder.Options? = nil) {
        self.quality = quality
        self.metadata = metadata
        self.colorPolicy = colorPolicy
        self.jpeg = jpeg
        self.png = png
        self.gif = gif
        self.webp = webp
    }
}
