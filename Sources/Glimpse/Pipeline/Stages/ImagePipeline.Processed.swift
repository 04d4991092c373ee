extension ImagePipeline {
    /// What the processing stage made: the final image and, when the data tier
    /// keeps processed images, its encoding; and when its executor job started and
    /// how long the processors and the encoding took, for ``ImageTask/Metrics``.
    struct Processed: Sendable {
        var image: Image
        var encoded: EncodedImage?
        var started: Duration = .zero
        var processDuration: Duration?
        var encodeDuration: Duration?
    }
}
