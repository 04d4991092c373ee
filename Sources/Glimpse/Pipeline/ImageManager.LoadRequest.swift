import Foundation

extension ImageManager {
    /// A load after the key stage: the URL, its cache keys and the options.
    struct LoadRequest: Sendable {
        var url: URL
        /// The failed-URL cache's key (the URL itself, not the key filter's
        /// output: two URLs that share cached bytes may still fail apart).
        var urlKey: String
        var key: ImageCacheKey
        var options: Options

        /// Loads with the same key share one job.
        var jobKey: JobTable.Key { JobTable.Key(memoryKey: key.memoryKey, behaviour: options.behaviour) }

        /// Whether the lookup stages run at all.
        var readsCache: Bool { !options.fromLoaderOnly && !options.refreshCached }
        var usesDisk: Bool { !options.memoryCacheOnly }
    }
}
