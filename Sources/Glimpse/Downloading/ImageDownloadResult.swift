/// A successful download.
public struct ImageDownloadResult: Sendable {
    /// The body, after the configured data transform.
    public var bytes: [UInt8]
    public var response: ImageDownloadResponse
    /// The decoded image, only for requests with the deprecated
    /// ``ImageDownloadRequest/decoding`` (the downloader moves bytes; the pipeline decodes).
    public var image: Image?

    public init(bytes: [UInt8], response: ImageDownloadResponse, image: Image?) {
        self.bytes = bytes
        self.response = response
        self.image = image
    }
}
