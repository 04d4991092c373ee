/// Where an image lives in the ``ImageCache``.
///
/// The disk tier keeps a resource's original bytes once, under ``base``; the
/// memory tier keeps each decoded variant (decoding options, transformer)
/// under ``memoryKey``. So a new variant of a known resource is decoded from
/// the bytes on disk instead of being downloaded again.
public struct ImageCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The resource: the manager's key filter applied to the URL.
    public var base: String
    /// What was done to the decoded image (decoding options, transformer keys);
    /// empty for the image as decoded with default options.
    public var variant: String

    public init(base: String, variant: String = "") {
        self.base = base
        self.variant = variant
    }

    /// The memory tier's key.
    public var memoryKey: String { variant.isEmpty ? base : base + Self.separator + variant }

    /// Separates the parts of a key (a resource from its variant, a URL from the digest of
    /// its distinguishing header fields): U+001F, a control character, so never part of a URL.
    static let separator = "\u{1F}"

    /// The data tier's key of this variant encoded as `format` by
    /// ``ImagePipeline/data(for:format:)`` (`nil`: the processed-format rule's choice),
    /// when it is not the variant's own entry: beside it, under ``memoryKey``.
    func encodingKey(_ format: ImageFormat?) -> String {
        memoryKey + Self.separator + "format=" + (format?.rawValue ?? "auto")
    }

    public var description: String { variant.isEmpty ? base : "\(base) [\(variant)]" }
}
