import Foundation
import Glimpse
import GlimpseCache
import LoopbackHTTPServer
import TestSupport
import Testing

/// The code of `Glimpse.docc/DataTier.md`, word for word: a pipeline over a data tier of the
/// caller's, which then holds what a load fetched.
@Suite("Documentation: the data tier article")
struct DataTierArticleTests {
    /// "Plugging in a tier"
    static func makePipeline(over myTier: any ImageDataCaching) -> ImagePipeline {
        let cache = ImageCache(memory: MemoryCache(configuration: .images()), data: myTier)
        let pipeline = ImagePipeline(configuration: .init(downloader: ImageDownloader(), cache: cache))
        return pipeline
    }

    @Test func theArticleCodeRuns() async throws {
        let server = try LoopbackHTTPServer()
        defer { server.shutdown() }
        server.setRoute("/a.png", .fixed(.ok(try Fixtures.bytes("png/ct6-d08-seq.png"), contentType: "image/png")))
        let tier = DictionaryDataTier()
        let pipeline = Self.makePipeline(over: tier)
        #expect(try await pipeline.image(for: server.url("/a.png")).width == 33)
        #expect(await eventually { tier.entryCount == 1 }, "the load's bytes reach the caller's tier")
    }
}
