/// One entry of the data tier (``ImageDataCaching``): encoded bytes and their record.
public struct ImageDataEntry: Sendable, Equatable {
    /// The original's ``ImageCacheKey/base``, or a processed variant's ``ImageCacheKey/memoryKey``.
    public var key: String
    /// The encoded image, as downloaded (an original) or as the pipeline encoded it (a variant).
    public var data: [UInt8]
    public var metadata: ImageDataMetadata
    /// Which tier answered a read: ``ImageTier/disk`` (the local data tier) unless a composite
    /// tier says otherwise (``LayeredDataTier``: ``ImageTier/shared``); the pipeline's result
    /// reports it. Ignored on store.
    public var tier: ImageTier

    public init(key: String, data: [UInt8], metadata: ImageDataMetadata = ImageDataMetadata(), tier: ImageTier = .disk) {
        self.key = key
        self.data = data
        self.metadata = metadata
        self.tier = tier
    }
}
