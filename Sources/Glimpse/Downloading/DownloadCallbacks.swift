/// One caller's callbacks. Each caller gets at most one `completion`, and
/// nothing after it.
struct DownloadCallbacks: Sendable {
    /// `(received, expected)` bytes; `expected` is `nil` when unknown.
    var progress: (@Sendable (Int64, Int64?) -> Void)?
    var completion: @Sendable (Result<ImageDownloadResult, ImageDownloadError>) -> Void
    /// Each piece of the body as it arrives, in order.
    var data: (@Sendable ([UInt8]) -> Void)?
    /// The completion only resumes a continuation (the async API): it is
    /// cheap, never blocks and has no progress to stay ordered with, so it is
    /// called where the result is known instead of hopping to the callback queue.
    var resumesDirectly = false

    init(progress: (@Sendable (Int64, Int64?) -> Void)? = nil,
         completion: @escaping @Sendable (Result<ImageDownloadResult, ImageDownloadError>) -> Void) {
        self.progress = progress
        self.completion = completion
    }
}
