import Foundation
import Testing
@testable import GlimpseCache

/// Crash safety and sharing between processes, with the `glimpse-cache-stress` helper.
@Suite("DiskCache processes", .enabled(if: StressProcess.executable != nil, "glimpse-cache-stress not built"))
struct DiskCacheProcessTests {
    /// SIGKILL at arbitrary moments of a write loop: afterwards every entry reads back exactly
    /// as some complete write left it, or is a miss.
    @Test(arguments: ["loop", "batchloop"])
    func survivesSIGKILLInTheMiddleOfWrites(mode: String) throws {
        let keys = 40
        for round in 0..<3 {
            let directory = TemporaryDirectory()
            let output = Pipe()
            let child = try #require(try StressProcess.launch([mode, directory.path, String(keys)], stdout: output))
            // Wait until the child has written every key once, then let it run a little more.
            let ready = output.fileHandleForReading.availableData
            #expect(String(decoding: ready, as: UTF8.self).hasPrefix("ready"))
            Thread.sleep(forTimeInterval: 0.02 + 0.05 * Double(round))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal)

            let cache = try DiskCache(configuration: .init(directory: directory.url, maxAge: .zero))
            var present = 0
            for index in 0..<keys {
                let key = "k\(index)"
                guard let data = cache.data(forKey: key) else { continue }
                present += 1
                #expect(StressPayload.isValid(data, key: key), "entry \(key) is torn")
            }
            // Every key was written completely at least once before "ready".
            #expect(present == keys)
        }
    }

    /// Two processes writing (and reading back) the same keys in one directory.
    @Test(arguments: ["write", "batchwrite"])
    func sharesADirectoryBetweenTwoWritingProcesses(mode: String) throws {
        let directory = TemporaryDirectory()
        let keys = 30
        let writers = try ["A", "B"].map { id in
            try #require(try StressProcess.launch([mode, directory.path, String(keys), "300", id]))
        }
        // This process reads concurrently too.
        let reader = try DiskCache(configuration: .init(directory: directory.url, maxAge: .zero))
        var torn = 0
        while writers.contains(where: \.isRunning) {
            for index in 0..<keys {
                if let data = reader.data(forKey: "k\(index)"), !StressPayload.isValid(data, key: "k\(index)") {
                    torn += 1
                }
            }
        }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
        }
        #expect(torn == 0)
        for index in 0..<keys {
            let entry = try #require(reader.entry(forKey: "k\(index)"))
            #expect(StressPayload.isValid(entry.data, key: "k\(index)"))
            #expect(entry.metadata.etag == "A" || entry.metadata.etag == "B")
        }
        reader.waitUntilIndexLoaded()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty)
    }
}
