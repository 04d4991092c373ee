extension ImagePipeline {
    /// What the processing stage made: the final image and, when the data tier
    /// keeps processed images, its encoding.
    struct Processed: Sendable {
        var image: Image
        var encoded: EncodedImage?
    }

    /// An image encoded for the data tier.
    struct EncodedImage: Sendable {
        var bytes: [UInt8]
        /// Stored as the entry's content type, for readers of the data tier.
        var contentType: String
        /// The format the processed image reports (its original's), kept with the entry.
        var sourceFormat: ImageFormat
    }
}
