extension ImagePipeline {
    /// One waiter's callbacks. Progress and partial images come before the
    /// completion, which is called exactly once.
    struct LoadCallbacks: Sendable {
        var progress: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)?
        var partialImage: (@Sendable (Image) -> Void)?
        var completion: @Sendable (Result<ImageResult, ImageLoadError>) -> Void
    }
}
