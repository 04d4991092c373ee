import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glimpse
import LoopbackHTTPServer
import Synchronization

/// `glimpse bench-download`: downloader throughput against bare URLSession
/// data tasks at the same concurrency, on an embedded loopback server, and the
/// number of requests coalesced callers cause.
struct BenchDownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-download",
        abstract: "Benchmark the image downloader against bare URLSession on a loopback server.",
        discussion: """
        Serves COUNT distinct images of SIZE bytes from 127.0.0.1 and downloads them all at CONCURRENCY, \
        alternately through the downloader and with bare URLSession data tasks (ROUNDS each; medians). \
        Both sides do the same work: CONCURRENCY workers each await one download at a time, over a session \
        configured like the downloader's (ephemeral, no URLCache, no cookies) with the same request headers, \
        and each receives the whole body. With --feed queue the downloader instead gets every request at once \
        and its own queue keeps CONCURRENCY running. \
        Then CALLERS callers ask for URLS URLs at once through a fresh downloader. Prints CSV lines \
        download,<name>,<value>,<unit> for glimpse (MB/s), urlsession (MB/s) and coalesced-requests. \
        With --reset-fraction F, instead serves the images over a paced link (--link-rate MB/s per connection) \
        that cuts each attempt half-way with probability F, and prints faulty-goodput (MB/s of whole images, \
        with resumption), faulty-goodput-no-resume, and faulty-complete (images that arrived byte for byte).
        """
    )

    @Option(help: "Distinct images served.")
    var count: Int = 1000

    @Option(help: "Bytes per image.")
    var size: Int = 50 * 1024

    @Option(help: "Downloads in flight at once, for both contenders.")
    var concurrency: Int = 6

    @Option(help: "Timed rounds per contender, alternating.")
    var rounds: Int = 5

    /// How requests reach the downloader.
    enum Feed: String, ExpressibleByArgument, Sendable {
        /// CONCURRENCY workers, one download each at a time: the bare URLSession side's mechanism.
        case workers
        /// Every request at once; the downloader's queue keeps CONCURRENCY running.
        case queue
    }

    @Option(help: "How the downloader gets its requests: workers (like the URLSession side) or queue (all at once).")
    var feed: Feed = .workers

    /// One side alone, for profiling.
    enum Contender: String, ExpressibleByArgument, Sendable {
        case glimpse, urlsession
    }

    @Option(help: ArgumentHelp("Time only this contender (for profiling; the other prints 0).", visibility: .hidden))
    var only: Contender?

    @Flag(help: "Also print each round's rates and ratio, and their median ratio, to stderr.")
    var perRound = false

    @Option(help: "Callers in the coalescing run.")
    var callers: Int = 100

    @Option(help: "Distinct URLs the callers ask for.")
    var urls: Int = 10

    @Option(help: ArgumentHelp("Instead: cut this fraction of transfers half-way and compare goodput with and without resumption.",
                               valueName: "F"))
    var resetFraction: Double?

    @Option(help: "With --reset-fraction: the simulated link's speed per connection, MB/s (0: unthrottled).")
    var linkRate: Int = 16

    @Flag(help: """
        Instead: compare the two loaders, ImageDownloader (URLSession) and AsyncHTTPClientImageLoader, \
        through ImageDataLoading, alternating ROUNDS each; prints loader-urlsession, loader-async-http-client \
        (MB/s, medians) and loader-ratio (the median of the rounds' ratios).
        """)
    var loaders = false

    func validate() throws {
        guard count >= 1, size >= 1, concurrency >= 1, rounds >= 1, callers >= 1, urls >= 1 else {
            throw ValidationError("every count must be at least 1")
        }
        if let resetFraction, !(0..<1).contains(resetFraction) {
            throw ValidationError("--reset-fraction must be in 0..<1")
        }
    }

    func run() async throws {
        if let resetFraction { return try await runFaulty(fraction: resetFraction) }
        let bodies = (0..<count).map { index in
            // Distinct images: the same noise with the index stamped in front.
            var body = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
            withUnsafeBytes(of: UInt32(index).bigEndian) { stamp in
                for (offset, byte) in stamp.enumerated() where offset < body.count { body[offset] = byte }
            }
            return body
        }
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer(fallback: .handler { request in
                let parts = request.path.split(separator: "/")
                guard parts.count == 2, parts[0] == "img", let index = Int(parts[1]), bodies.indices.contains(index) else {
                    return .status(404)
                }
                return .ok(bodies[index])
            })
        } catch {
            throw CommandFailure("cannot start the loopback server: \(error)")
        }
        defer { server.shutdown() }
        let targets = (0..<count).map { server.url("/img/\($0)") }
        let totalBytes = Double(count * size)
        if loaders { return try await runLoaders(targets, totalBytes: totalBytes) }

        // One untimed pass each first: thread pools, connections and allocator warm up.
        let warmUp = Array(targets.prefix(100))
        if only != .urlsession { _ = try await timeDownloader(warmUp) }
        if only != .glimpse { _ = try await timeURLSession(warmUp) }

        var glimpseRates: [Double] = []
        var sessionRates: [Double] = []
        for round in 0..<rounds {
            if let only {
                switch only {
                case .glimpse: glimpseRates.append(totalBytes / 1e6 / (try await timeDownloader(targets)))
                case .urlsession: sessionRates.append(totalBytes / 1e6 / (try await timeURLSession(targets)))
                }
                continue
            }
            // Alternating which goes first cancels the bias of running second.
            if round.isMultiple(of: 2) {
                glimpseRates.append(totalBytes / 1e6 / (try await timeDownloader(targets)))
                sessionRates.append(totalBytes / 1e6 / (try await timeURLSession(targets)))
            } else {
                sessionRates.append(totalBytes / 1e6 / (try await timeURLSession(targets)))
                glimpseRates.append(totalBytes / 1e6 / (try await timeDownloader(targets)))
            }
        }
        if perRound, only == nil {
            // To stderr, so that stdout stays the CSV lines: each round's pair and
            // its ratio; on a busy machine their median is steadier than either rate.
            var ratios: [Double] = []
            for (round, (ours, theirs)) in zip(glimpseRates, sessionRates).enumerated() {
                ratios.append(ours / theirs)
                FileHandle.standardError.write(Data(String(format: "round %d: glimpse %.1f urlsession %.1f MB/s, ratio %.3f\n",
                                                           round, ours, theirs, ours / theirs).utf8))
            }
            FileHandle.standardError.write(Data(String(format: "median ratio %.3f\n", Measurements.median(ratios)).utf8))
        }
        print(String(format: "download,glimpse,%.1f,MB/s", Measurements.median(glimpseRates)))
        print(String(format: "download,urlsession,%.1f,MB/s", Measurements.median(sessionRates)))

        server.resetStatistics()
        let coalesced = try await coalescingRun(server)
        print("download,coalesced-requests,\(coalesced),requests")
    }

    /// Seconds to download every target through an ``ImageDownloader``, fed
    /// as ``feed`` says; its queue never runs more than `concurrency`.
    private func timeDownloader(_ targets: [URL]) async throws -> Double {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        let downloader = ImageDownloader(configuration: configuration)
        defer { downloader.invalidate() }
        let start = ContinuousClock.now
        if feed == .workers {
            let cursor = WorkCursor(limit: targets.count)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        while let index = cursor.next() {
                            let received: Int
                            do {
                                received = try await downloader.download(targets[index]).bytes.count
                            } catch {
                                throw CommandFailure("\(targets[index]): \(error)")
                            }
                            guard received == size else { throw CommandFailure("received \(received) bytes instead of \(size)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
            return Measurements.seconds(ContinuousClock.now - start)
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for url in targets {
                group.addTask {
                    do {
                        return try await downloader.download(url).bytes.count
                    } catch {
                        throw CommandFailure("\(url): \(error)")
                    }
                }
            }
            for try await received in group where received != size {
                throw CommandFailure("received \(received) bytes instead of \(size)")
            }
        }
        return Measurements.seconds(ContinuousClock.now - start)
    }

    /// Seconds to download every target with bare URLSession data tasks,
    /// `concurrency` at a time, configured as the downloader's session is by
    /// default: the same defaults, and no cookie storage (the downloader's
    /// session for requests without cookies has none; with one, corelibs parses
    /// every response for cookies, work the downloader does not do).
    private func timeURLSession(_ targets: [URL]) async throws -> Double {
        let defaults = ImageDownloader.Configuration()
        let configuration = defaults.makeSessionConfiguration()
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let cursor = WorkCursor(limit: targets.count)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while true {
                        guard let index = cursor.next() else { return }
                        let received = try await fetch(targets[index], with: session, headers: defaults.defaultHeaders)
                        guard received == size else { throw CommandFailure("received \(received) bytes instead of \(size)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        return Measurements.seconds(ContinuousClock.now - start)
    }

    private func fetch(_ url: URL, with session: URLSession, headers: [String: String]) async throws -> Int {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: CommandFailure("\(url): \(error.localizedDescription)"))
                } else if (response as? HTTPURLResponse)?.statusCode != 200 {
                    continuation.resume(throwing: CommandFailure("\(url): bad status"))
                } else {
                    continuation.resume(returning: data?.count ?? 0)
                }
            }.resume()
        }
    }

    /// `callers` callers ask for `urls` URLs at once (queued together while the
    /// downloader is suspended); returns the requests the server received.
    private func coalescingRun(_ server: LoopbackHTTPServer) async throws -> Int {
        var configuration = ImageDownloader.Configuration()
        configuration.maximumConcurrentDownloads = concurrency
        let downloader = ImageDownloader(configuration: configuration)
        defer { downloader.invalidate() }
        downloader.suspend()
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for caller in 0..<callers {
                let url = server.url("/img/\(caller % urls)")
                group.addTask { (try? await downloader.download(url)) != nil }
            }
            // Every caller is waiting (coalesced into `urls` transfers) before any starts.
            while downloader.waitingCallerCount < callers {
                try await Task.sleep(for: .milliseconds(1))
            }
            downloader.resume()
            return try await group.reduce(into: 0) { if $1 { $0 += 1 } }
        }
        guard outcomes == callers else { throw CommandFailure("\(callers - outcomes) coalesced callers failed") }
        return server.requests.count
    }
}
