/// Why a load failed.
public enum ImageLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The download failed (status, transport, timeout, invalid URL…).
    case download(ImageDownloadError)
    /// The bytes (downloaded or cached) are not a decodable image.
    case decoding(ImageDecodingError)
    /// The transformer rejected the image.
    case transform(TransformError)
    /// The image could not be encoded in the format ``ImagePipeline/data(for:format:)``
    /// was asked for (no encoder registered for it, or the encoder refused the image).
    case encoding(ImageEncodingError)
    /// The URL failed permanently a short while ago, for the reason given
    /// (failed-URL cache); pass ``ImageRequest/Options/retryFailed`` to try anyway.
    indirect case failedRecently(ImageLoadError)
    /// ``ImageRequest/Options/fromCacheOnly`` was set and no tier had the image.
    case notCached
    /// The should-download hook said no.
    case downloadRefused
    /// The caller cancelled.
    case cancelled
    /// The pipeline was shut down (``ImagePipeline/shutdown(deadline:)``) before or
    /// while this load ran; it takes no more loads.
    case shutDown

    public var description: String {
        switch self {
        case .download(let error): error.description
        case .decoding(let error): "cannot decode: \(error)"
        case .transform(let error): "cannot transform: \(error)"
        case .encoding(let error): "cannot encode: \(error)"
        case .failedRecently(let reason): "failed recently (negative cache): \(reason)"
        case .notCached: "not cached"
        case .downloadRefused: "download refused"
        case .cancelled: "cancelled"
        case .shutDown: "pipeline shut down"
        }
    }

    /// Whether retrying the same URL soon would fail the same way: the
    /// downloader's judgement (invalid URL, a 4xx status other than 408/429,
    /// an unacceptable or undecodable body) or bytes that do not decode.
    /// Timeouts, cancellation, connection failures and 5xx are transient.
    public var isPermanent: Bool {
        switch self {
        case .download(let error): error.isPermanent
        case .decoding: true
        default: false
        }
    }
}
