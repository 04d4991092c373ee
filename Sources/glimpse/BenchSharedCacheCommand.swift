import ArgumentParser
import Foundation
import Glimpse
import GlimpseCache
import GlimpseCodec
import GlimpseRedis
import LoopbackHTTPServer

/// `glimpse bench-shared-cache`: the shared data tier on a Redis the caller runs: latency of
/// reads of 256-px JPEG thumbnails with 16 in flight, and origin requests of a cold fleet.
struct BenchSharedCacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-shared-cache",
        abstract: "Benchmark the shared (Redis) data tier: read latency and one origin request per image across processes.",
        discussion: """
        Prints CSV lines shared,<name>,<value>,<unit>. get-p50 and get-p99 (ms): RedisDataTier reads (one GET, \
        checksum and record checked) of 256-px JPEG thumbnails the pipeline stored, 16 in flight; rounds alternate \
        with plain GETs of the same keys through the same client (the reference, on standard error). load-p50 and \
        load-p99 (ms): whole pipeline loads of those thumbnails served from the shared tier (empty memory tier, no \
        disk), 16 in flight. origin-requests: requests an in-process loopback origin counted while 4 processes \
        (this executable re-run as 'glimpse fetch', each with its own disk folder) fetched the same 100 cold URLs \
        (goal: 100). Keys go under a namespace of their own, removed at the end.
        """
    )

    @Option(help: "The Redis to measure: redis://[user:password@]HOST:PORT[/DB].")
    var sharedCache: String

    @Option(help: "Distinct thumbnails read in the latency rounds.")
    var thumbnails: Int = 64

    @Option(help: "Reads (or loads) per round.")
    var reads: Int = 4_096

    @Option(help: "Rounds per contender, alternating.")
    var rounds: Int = 5

    @Option(help: "Reads or loads in flight at once.")
    var concurrency: Int = 16

    @Option(help: "Processes of the cold fleet.")
    var processes: Int = 4

    @Option(help: "Cold URLs every process fetches.")
    var urls: Int = 100

    @Option(help: "Seconds the fleet's processes wait for another's fetch (glimpse fetch --shared-cache-lock-wait; default: the tier's, 3).")
    var lockWait: Double = 3

    func validate() throws {
        guard RedisClient.Configuration(url: sharedCache) != nil else {
            throw ValidationError("--shared-cache must be redis://[user:password@]HOST:PORT[/DB]")
        }
        guard lockWait >= 0, lockWait <= 3600 else { throw ValidationError("--lock-wait must be between 0 and 3600 seconds") }
        guard thumbnails >= 1, reads >= 1, rounds >= 1, concurrency >= 1, processes >= 1, urls >= 1 else {
            throw ValidationError("counts must be at least 1")
        }
    }

    func run() async throws {
        guard let clientConfiguration = RedisClient.Configuration(url: sharedCache) else { return }
        let namespace = "glimpse-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)):"
        let client = RedisClient(configuration: clientConfiguration)
        let tier = RedisDataTier(client: client, configuration: .init(namespace: namespace))
        guard case .simpleString = try? await client.send(RESP.Command("PING")) else {
            await client.shutdown()
            throw CommandFailure("\(sharedCache): Redis does not answer PING")
        }
        let photo = try Self.syntheticPhoto()
        let origin: LoopbackHTTPServer
        do {
            origin = try LoopbackHTTPServer(fallback: .fixed(.ok(photo, contentType: "image/jpeg")))
        } catch {
            throw CommandFailure("cannot start the loopback origin: \(error)")
        }
        defer { origin.shutdown() }
        do {
            try await latencies(tier: tier, origin: origin)
            try await originRequests(origin: origin, namespace: namespace)
        } catch {
            try? await tier.removeAllEntries()
            await client.shutdown()
            throw error
        }
        try? await tier.removeAllEntries()
        await client.shutdown()
    }

    /// A 1024×768 JPEG (q 85) with smooth gradients and fine texture, made here so the bench
    /// needs no files.
    static func syntheticPhoto() throws(CommandFailure) -> [UInt8] {
        let width = 1024, height = 768
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(state >> 59)
                let index = (y * width + x) * 4
                bytes[index] = UInt8(truncatingIfNeeded: x * 255 / width + noise)
                bytes[index + 1] = UInt8(truncatingIfNeeded: y * 255 / height + noise)
                bytes[index + 2] = UInt8(truncatingIfNeeded: (x ^ y) & 0x7F + 64)
            }
        }
        guard let pixels = PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes) else {
            throw CommandFailure("cannot make the bench image")
        }
        do {
            return try Image(pixels: pixels, format: .png).encoded(as: .jpeg, options: EncodingOptions(quality: 85))
        } catch {
            throw CommandFailure("cannot encode the bench image: \(error)")
        }
    }

    static func thumbnailRequest(_ url: URL, options: ImageRequest.Options = []) -> ImageRequest {
        ImageRequest(url: url, processors: [ImageTransformers.Resize(width: 256, height: 256, mode: .fit, allowsUpscaling: false)],
                     options: options)
    }

    /// p50 and p99 of `values` (nearest rank).
    static func percentiles(_ values: [Double]) -> (p50: Double, p99: Double) {
        guard !values.isEmpty else { return (0, 0) }
        let sorted = values.sorted()
        func rank(_ fraction: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
        }
        return (rank(0.5), rank(0.99))
    }

    func line(_ name: String, _ value: Double, _ unit: String, format: String = "%.3f") {
        print(String(format: "shared,%@,\(format),%@", name, value, unit))
    }
}
