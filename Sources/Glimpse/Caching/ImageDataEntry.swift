/// One entry of the data tier (``ImageDataCaching``): encoded bytes and their record.
public struct ImageDataEntry: Sendable, Equatable {
    /// The original's ``ImageCacheKey/base``, or a processed variant's ``ImageCacheKey/memoryKey``.
    public var key: String
    /// The encoded image, as downloaded (an original) or as the pipeline encoded it (a variant).
    public var data: [UInt8]
    public var metadata: ImageDataMetadata

    public init(key: String, data: [UInt8], metadata: ImageDataMetadata = ImageDataMetadata()) {
        self.key = key
        self.data = data
        self.metadata = metadata
    }
}
