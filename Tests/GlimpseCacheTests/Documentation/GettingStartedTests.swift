import Foundation
import GlimpseCache
import Testing

/// The code of `GlimpseCache.docc/GettingStarted.md`, word for word inside these
/// functions: CI compiles and runs it, so the article cannot drift from the API.
@Suite("Documentation: GlimpseCache getting started")
struct CacheGettingStartedTests {
    // MARK: - Article code

    /// "A memory cache"
    static func memoryCacheExample() -> [UInt8]? {
        // At most 64 MiB of values and 1,000 entries; least recently used first out.
        let thumbnails = MemoryCache<String, [UInt8]>(costLimit: 64 << 20, countLimit: 1_000)
        let bytes: [UInt8] = [1, 2, 3]
        // The cost is what the value weighs against the limit: its size in bytes here.
        thumbnails.setValue(bytes, forKey: "avatar-42", cost: bytes.count)
        thumbnails.setValue([9], forKey: "session-token", cost: 1, timeToLive: .seconds(60))
        return thumbnails.value(forKey: "avatar-42")
    }

    /// "A disk cache"
    static func diskCacheExample(directory: URL) throws -> (Data, String?)? {
        let cache = try DiskCache(configuration: DiskCache.Configuration(
            directory: directory, sizeLimit: 256 << 20, maxAge: .seconds(7 * 24 * 3600)))
        let metadata = DiskCache.Metadata(etag: "\"v1\"", contentType: "image/png")
        try cache.setData([0x89, 0x50, 0x4E, 0x47], metadata: metadata, forKey: "https://example.com/a.png")
        // Synchronous reads suit threads of your own; `cache.async` reads off the caller's task.
        guard let entry = cache.entry(forKey: "https://example.com/a.png") else { return nil }
        return (entry.data, entry.metadata.etag)
    }

    /// "From async code"
    static func asyncExample(directory: URL) async throws -> Bool {
        let cache = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
        try await cache.async.setData(Data("hello".utf8), forKey: "greeting")
        return await cache.async.data(forKey: "greeting") == Data("hello".utf8)
    }

    // MARK: - Checks

    @Test func theArticleCodeRuns() async throws {
        #expect(Self.memoryCacheExample() == [1, 2, 3])
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("glimpse-docs-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let entry = try #require(try Self.diskCacheExample(directory: directory.appendingPathComponent("sync")))
        #expect(entry.0 == Data([0x89, 0x50, 0x4E, 0x47]) && entry.1 == "\"v1\"")
        #expect(try await Self.asyncExample(directory: directory.appendingPathComponent("async")))
    }
}
