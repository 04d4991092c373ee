import Dispatch
import Foundation

extension ImagePipeline {
    /// The original bytes when they need no loader: a `file` URL, read by the
    /// pipeline itself (on a GCD thread, never the cooperative pool; corelibs'
    /// URLSession cannot read files), or the bytes a request carries
    /// (``ImageRequest/init(id:data:processors:options:priority:)``). `nil` for
    /// everything the loader fetches, `file` URLs too when ``Configuration/readsFileURLs``
    /// is off. The result then goes through the same
    /// decode, processors and stores as a download.
    func localOriginal(_ request: ImageRequest, url: URL) async throws(ImageLoadError) -> ImageDownloadResult? {
        if let bytes = request.data {
            return ImageDownloadResult(bytes: bytes, response: Self.localResponse(url, count: bytes.count))
        }
        guard url.isFileURL, configuration.readsFileURLs else { return nil }
        let limit = configuration.maximumFileSize
        let read: Result<[UInt8], ImageDownloadError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Self.readFile(url.path, limit: limit))
            }
        }
        let bytes = try read.mapError { ImageLoadError.download($0) }.get()
        return ImageDownloadResult(bytes: bytes, response: Self.localResponse(url, count: bytes.count))
    }

    /// Blocking: the whole file, checked against `limit` before and after reading it.
    private static func readFile(_ path: String, limit: Int) -> Result<[UInt8], ImageDownloadError> {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            // A missing file fails as a missing resource would over HTTP (permanently).
            return .failure(.badStatus(404))
        }
        if let size = attributes[.size] as? Int, size > limit { return .failure(.tooLarge) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.transport(code: -1, message: "\(path): cannot read"))
        }
        // The file may have grown since its size was read.
        guard data.count <= limit else { return .failure(.tooLarge) }
        guard !data.isEmpty else { return .failure(.emptyBody) }
        return .success([UInt8](data))
    }

    private static func localResponse(_ url: URL, count: Int) -> ImageDownloadResponse {
        ImageDownloadResponse(url: url, statusCode: 200, headers: [:], mimeType: nil, expectedContentLength: Int64(count))
    }
}
