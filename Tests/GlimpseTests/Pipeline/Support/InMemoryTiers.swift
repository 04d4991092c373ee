import Foundation
import Glimpse
import GlimpseCache
import Synchronization

/// A memory tier that is a dictionary (no eviction): the protocol is all the pipeline needs.
final class DictionaryMemoryTier: ImageMemoryCaching {
    private let images = Lock<[String: Image]>([:])

    func image(forKey key: String) -> Image? { images.withLock { $0[key] } }
    func store(_ image: Image, forKey key: String, cost: Int) { images.withLock { $0[key] = image } }
    func removeImage(forKey key: String) { _ = images.withLock { $0.removeValue(forKey: key) } }
    func removeAllImages() { images.withLock { $0.removeAll() } }
    var imageCount: Int { images.withLock { $0.count } }
    var totalCost: Int { images.withLock { $0.values.reduce(0) { $0 + $1.byteCount } } }
}

/// A data tier that is a dictionary: where Redis or an object store would plug in.
final class DictionaryDataTier: ImageDataCaching {
    private let entries = Lock<[String: ImageDataEntry]>([:])

    func entry(forKey key: String) async -> ImageDataEntry? { entries.withLock { $0[key] } }
    func containsEntry(forKey key: String) async -> Bool { entries.withLock { $0[key] != nil } }
    func store(_ batch: [ImageDataEntry]) async {
        entries.withLock { entries in for entry in batch { entries[entry.key] = entry } }
    }
    func removeEntry(forKey key: String) async { _ = entries.withLock { $0.removeValue(forKey: key) } }
    func removeAllEntries() async { entries.withLock { $0.removeAll() } }
    var entryCount: Int { entries.withLock { $0.count } }
    var totalSize: Int { entries.withLock { $0.values.reduce(0) { $0 + $1.data.count } } }
    var keys: Set<String> { entries.withLock { Set($0.keys) } }
}

/// A loader that serves bytes from a dictionary, in pieces, and records what it was asked.
final class DictionaryLoader: ImageDataLoading {
    struct Task: ImageDataLoadingTask {
        let cancelled: @Sendable () -> Bool
        func cancel() -> Bool { cancelled() }
        func setPriority(_ priority: ImageDownloadPriority) {}
    }

    private let files: [String: [UInt8]]
    let requests = Lock<[ImageDownloadRequest]>([])

    init(files: [String: [UInt8]]) { self.files = files }

    func loadData(for request: ImageDownloadRequest, handlers: ImageDataLoadingHandlers) -> any ImageDataLoadingTask {
        requests.withLock { $0.append(request) }
        let box = DoneBox()
        DispatchQueue.global().async { [files] in
            guard let bytes = files[request.url.path] else {
                if box.claim() { handlers.completion(.failure(.badStatus(404))) }
                return
            }
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 256)
                handlers.data?(Array(bytes[offset..<end]))
                handlers.progress?(Int64(end), Int64(bytes.count))
                offset = end
            }
            let response = ImageDownloadResponse(url: request.url, statusCode: 200, headers: [:], mimeType: nil,
                                                 expectedContentLength: Int64(bytes.count))
            if box.claim() { handlers.completion(.success(ImageDownloadResult(bytes: bytes, response: response))) }
        }
        return Task(cancelled: {
            guard box.claim() else { return false }
            handlers.completion(.failure(.cancelled))
            return true
        })
    }

    var requestCount: Int { requests.withLock { $0.count } }
}

/// The completion runs once, whoever gets there first.
final class DoneBox: Sendable {
    private let done = Atomic<Bool>(false)
    func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}
