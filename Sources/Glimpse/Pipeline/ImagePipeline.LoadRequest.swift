import Foundation

extension ImagePipeline {
    /// A load after the key stage: the request, its URL and cache keys.
    struct LoadRequest: Sendable {
        var request: ImageRequest
        var url: URL
        /// The failed-URL cache's key (the URL itself, not the key filter's
        /// output: two URLs that share cached bytes may still fail apart).
        var urlKey: String
        var key: ImageCacheKey
        var policy: DataCachePolicy

        var options: ImageRequest.Options { request.options }

        /// Loads with the same key share one job.
        var jobKey: JobKey {
            JobKey(memoryKey: key.memoryKey, behaviour: options.intersection(.behaviour).rawValue,
                         headers: request.headers)
        }

        /// Whether the lookup stages run at all.
        var readsCache: Bool { !options.contains(.fromLoaderOnly) && !options.contains(.refreshCached) }
        var usesDisk: Bool { !options.contains(.memoryCacheOnly) }

        /// Whether the image differs from the decoded original (processors, first frame, reduced size).
        var isProcessed: Bool { !key.variant.isEmpty }

        /// Whether the data tier keeps the processed image, encoded, under ``ImageCacheKey/memoryKey``.
        var storesProcessed: Bool {
            guard usesDisk, isProcessed else { return false }
            switch policy {
            case .automatic, .processedOnly, .both: return true
            case .originalOnly: return false
            }
        }

        /// Whether the data tier keeps the original bytes under ``ImageCacheKey/base``.
        var storesOriginal: Bool {
            guard usesDisk else { return false }
            guard isProcessed else { return true }
            switch policy {
            case .automatic, .processedOnly: return false
            case .originalOnly, .both: return true
            }
        }
    }
}
