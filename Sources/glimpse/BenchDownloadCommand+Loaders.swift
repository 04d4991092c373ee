import AsyncHTTPClient
import Foundation
import Glimpse
import GlimpseAsyncHTTPClient
import GlimpseCache

/// `glimpse bench-download --loaders`: the two `ImageDataLoading` implementations —
/// ``ImageDownloader`` (URLSession) and `AsyncHTTPClientImageLoader` — on the same
/// targets, through the same protocol call, alternating rounds; medians and their ratio.
extension BenchDownloadCommand {
    enum Loader: String, Sendable, CaseIterable {
        case urlsession
        case asyncHTTPClient = "async-http-client"
    }

    func runLoaders(_ targets: [URL], totalBytes: Double) async throws {
        let warmUp = Array(targets.prefix(100))
        for loader in Loader.allCases { _ = try await time(loader, warmUp) }
        var rates: [Loader: [Double]] = [:]
        for round in 0..<rounds {
            // Alternating which goes first cancels the bias of running second.
            let order = round.isMultiple(of: 2) ? Loader.allCases : Loader.allCases.reversed()
            for loader in order {
                rates[loader, default: []].append(totalBytes / 1e6 / (try await time(loader, targets)))
            }
        }
        let session = rates[.urlsession] ?? [], client = rates[.asyncHTTPClient] ?? []
        if perRound {
            for (round, (one, other)) in zip(session, client).enumerated() {
                FileHandle.standardError.write(Data(String(format: "round %d: urlsession %.1f async-http-client %.1f MB/s, ratio %.3f\n",
                                                           round, one, other, other / one).utf8))
            }
        }
        let ratios = zip(session, client).map { $1 / $0 }
        print(String(format: "download,loader-urlsession,%.1f,MB/s", Measurements.median(session)))
        print(String(format: "download,loader-async-http-client,%.1f,MB/s", Measurements.median(client)))
        print(String(format: "download,loader-ratio,%.3f,async-http-client/urlsession", Measurements.median(ratios)))
    }

    /// Seconds to load every target through `loader`, `concurrency` workers each awaiting
    /// one load at a time; each loader (and its session or client) is made for the round.
    private func time(_ loader: Loader, _ targets: [URL]) async throws -> Double {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        let client: HTTPClient?
        let loading: any ImageDataLoading
        switch loader {
        case .urlsession:
            client = nil
            loading = ImageDownloader(configuration: configuration)
        case .asyncHTTPClient:
            let made = HTTPClient(eventLoopGroupProvider: .singleton,
                                  configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
            client = made
            loading = AsyncHTTPClientImageLoader(client: made, configuration: configuration)
        }
        let cursor = WorkCursor(limit: targets.count)
        let expected = size
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while let index = cursor.next() {
                        let result = await withCheckedContinuation { continuation in
                            _ = loading.loadData(for: ImageDownloadRequest(url: targets[index]),
                                                 handlers: ImageDataLoadingHandlers(completion: { continuation.resume(returning: $0) }))
                        }
                        let received: Int
                        switch result {
                        case .success(let loaded): received = loaded.bytes.count
                        case .failure(let error): throw CommandFailure("\(targets[index]): \(error)")
                        }
                        guard received == expected else { throw CommandFailure("received \(received) bytes instead of \(expected)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        await loading.shutdown()
        try await client?.shutdown()
        return Measurements.seconds(elapsed)
    }
}
