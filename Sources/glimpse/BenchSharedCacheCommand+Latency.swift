import Foundation
import Glimpse
import GlimpseCodec
import GlimpseRedis
import LoopbackHTTPServer

extension BenchSharedCacheCommand {
    /// get-p50/p99 (the tier's reads, alternating with plain GETs) and load-p50/p99 (pipeline
    /// loads served from the shared tier) of 256-px JPEG thumbnails.
    func latencies(tier: RedisDataTier, origin: LoopbackHTTPServer) async throws {
        // The thumbnails, made and stored by a pipeline whose only data tier is the Redis one.
        let writer = ImagePipeline(configuration: .init(
            downloader: ImageDownloader(), cache: ImageCache(memory: MemoryCache(configuration: .images()), data: tier)))
        var keys: [String] = []
        var requests: [ImageRequest] = []
        for index in 0..<thumbnails {
            let request = Self.thumbnailRequest(origin.url("/thumbnail/\(index).jpg"), options: [.waitForDiskStore])
            do {
                _ = try await writer.load(request)
            } catch {
                throw CommandFailure("cannot load the bench thumbnail: \(error)")
            }
            keys.append(writer.cacheKey(for: request).memoryKey)
            var later = request
            later.options = []
            requests.append(later)
        }
        await writer.configuration.cache.fetchClaimsReleased()
        await tier.waitForBackgroundWrites()
        guard let sample = try? await tier.entry(forKey: keys[0]) else {
            throw CommandFailure("the thumbnails did not reach Redis (refused writes? maxmemory?)")
        }
        Terminal.standardError("thumbnail entries: \(keys.count) of \(sample.data.count) bytes, \(sample.metadata.contentType ?? "?")")

        let storedKeys = keys, storedRequests = requests
        let misses = Tally()
        var ours: [Double] = [], plain: [Double] = []
        for round in 0..<rounds {
            for isPlain in round % 2 == 0 ? [false, true] : [true, false] {
                let times = await Self.timed(reads, concurrency: concurrency) { index in
                    let key = storedKeys[index % storedKeys.count]
                    if isPlain {
                        if (try? await tier.client.send(RESP.Command("GET", tier.entryKey(key))))?.bytes == nil { misses.add() }
                    } else if (try? await tier.entry(forKey: key)) == nil {
                        misses.add()
                    }
                }
                if isPlain { plain += times } else { ours += times }
            }
        }
        let (p50, p99) = Self.percentiles(ours), (plain50, plain99) = Self.percentiles(plain)
        line("get-p50", p50, "ms")
        line("get-p99", p99, "ms")
        Terminal.standardError(String(format: "reference (plain GET of the same keys, same client, alternating rounds): p50 %.3f ms, p99 %.3f ms; tier / plain: p50 %.2f, p99 %.2f",
                                      plain50, plain99, p50 / max(plain50, 1e-9), p99 / max(plain99, 1e-9)))

        // Whole loads: no memory tier and no disk, so every one is served from Redis.
        var loads: [Double] = []
        let notShared = Tally()
        for _ in 0..<rounds {
            let reader = ImagePipeline(configuration: .init(
                downloader: ImageDownloader(), cache: ImageCache(memory: NoMemoryTier(), data: tier)))
            loads += await Self.timed(reads, concurrency: concurrency) { index in
                let result = try? await reader.load(storedRequests[index % storedRequests.count])
                if result?.tier != .shared { notShared.add() }
            }
        }
        let (load50, load99) = Self.percentiles(loads)
        line("load-p50", load50, "ms")
        line("load-p99", load99, "ms")
        if misses.count > 0 || notShared.count > 0 {
            Terminal.standardError("warning: \(misses.count) reads missed and \(notShared.count) loads were not served from the shared tier")
        }
    }

    /// Runs `body(0..<count)` on `concurrency` tasks at once; the milliseconds of each call.
    static func timed(_ count: Int, concurrency: Int, _ body: @escaping @Sendable (Int) async -> Void) async -> [Double] {
        await withTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var times: [Double] = []
                    var index = worker
                    while index < count {
                        let start = ContinuousClock.now
                        await body(index)
                        times.append(Measurements.milliseconds(since: start))
                        index += concurrency
                    }
                    return times
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }
}
