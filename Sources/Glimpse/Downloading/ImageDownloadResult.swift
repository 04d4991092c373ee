/// A successful download.
public struct ImageDownloadResult: Sendable {
    /// The body, after the configured data transform.
    public var bytes: [UInt8]
    public var response: ImageDownloadResponse

    public init(bytes: [UInt8], response: ImageDownloadResponse) {
        self.bytes = bytes
        self.response = response
    }
}
