import ArgumentParser
import Foundation
import GlimpseCache

/// `glimpse cache stats|clear|prune`: the disk cache `fetch` uses.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or empty the pipeline's disk cache.",
        subcommands: [Stats.self, Clear.self, Prune.self]
    )

    struct Location: ParsableArguments {
        @Option(help: "Disk cache directory (default: the disk cache's, ~/.cache/glimpse/images).")
        var cacheDir: String?

        func open() throws(CommandFailure) -> DiskCache {
            let disk = try PipelineSupport.openDisk(cacheDir)
            disk.waitUntilIndexLoaded()
            return disk
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the entry count and size.")
        @OptionGroup var location: Location

        func run() async throws {
            let disk = try location.open()
            print("directory: \(disk.path)")
            print("entries: \(disk.count)")
            print("bytes: \(disk.totalSize)")
            print("limit: \(disk.configuration.sizeLimit)")
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every entry.")
        @OptionGroup var location: Location

        func run() async throws {
            let disk = try location.open()
            let count = disk.count
            disk.removeAll()
            disk.flush()
            print("removed \(count) entries from \(disk.path)")
        }
    }

    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove expired entries.")
        @OptionGroup var location: Location

        func run() async throws {
            let disk = try location.open()
            let before = disk.count
            disk.removeExpired()
            disk.flush()
            print("removed \(before - disk.count) expired entries; \(disk.count) remain (\(disk.totalSize) bytes)")
        }
    }
}
