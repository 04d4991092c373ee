import Foundation
import GlimpseCache

extension ImageManager {
    /// Makes sure the original bytes of `url` are in the disk tier, without
    /// decoding them: the prefetcher's disk-only mode.
    ///
    /// - Returns: ``ImageResult/Tier/disk`` when they already were,
    ///   ``ImageResult/Tier/network`` when they were downloaded now.
    @discardableResult
    public func loadData(_ url: URL, options: Options = Options()) async throws(ImageLoadError) -> ImageResult.Tier {
        let request = makeRequest(url, options: options)
        guard let disk = configuration.cache.disk, request.usesDisk else { throw .notCached }
        if !options.fromLoaderOnly, await disk.async.contains(request.key.base) {
            return .disk
        }
        if options.fromCacheOnly { throw .notCached }
        if !options.retryFailed, failedURLs.contains(request.urlKey) { throw .failedRecently }
        if let shouldDownload = configuration.hooks.shouldDownload, !shouldDownload(url) { throw .downloadRefused }
        let downloaded: ImageDownloadResult
        do throws(ImageDownloadError) {
            downloaded = try await configuration.downloader.download(
                ImageDownloadRequest(url: url, priority: options.priority))
        } catch {
            let failure = ImageLoadError.download(error)
            if failure.isPermanent { failedURLs.insert(request.urlKey) }
            throw failure
        }
        var storing = request
        storing.options.waitForDiskStore = true
        await storeOriginal(downloaded.bytes, response: downloaded.response, storing)
        return .network
    }
}
