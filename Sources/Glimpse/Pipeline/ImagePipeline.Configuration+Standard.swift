import Foundation
import GlimpseCache

extension ImagePipeline.Configuration {
    /// The configuration of ``ImagePipeline/shared``: a memory tier sized from
    /// the memory the process may use (cgroup limit, else physical memory:
    /// ``MemoryBudget``), a disk cache in `glimpse/images` under the XDG cache
    /// folder (`$XDG_CACHE_HOME`, else `~/.cache`; XDG Base Directory
    /// Specification) and an ``ImageDownloader``.
    ///
    /// Without a usable cache folder (no absolute `XDG_CACHE_HOME` or `HOME`,
    /// or a folder that cannot be created or written) the cache is memory-only
    /// and ``memoryOnlyReason`` says why; nothing traps.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        let memory = MemoryCache<String, Image>(configuration: .images())
        let disk: DiskCache?
        let reason: String?
        switch openStandardDiskCache(environment: environment) {
        case .success(let opened):
            (disk, reason) = (opened, nil)
        case .failure(let failure):
            (disk, reason) = (nil, failure.reason)
        }
        var configuration = Self(downloader: ImageDownloader(), cache: ImageCache(memory: memory, disk: disk))
        configuration.memoryOnlyReason = reason
        return configuration
    }

    struct DiskCacheUnavailable: Error {
        var reason: String
    }

    /// `$XDG_CACHE_HOME/glimpse/images` or `$HOME/.cache/glimpse/images`, created and
    /// checked for writing.
    static func openStandardDiskCache(environment: [String: String]) -> Result<DiskCache, DiskCacheUnavailable> {
        let root: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            root = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            root = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        } else {
            return .failure(DiskCacheUnavailable(reason: "no cache folder: neither XDG_CACHE_HOME nor HOME is an absolute path"))
        }
        let directory = root.appendingPathComponent("glimpse", isDirectory: true)
            .appendingPathComponent("images", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return .failure(DiskCacheUnavailable(reason: "\(directory.path): cannot create: \(error.localizedDescription)"))
        }
        // A folder that exists but cannot be written (read-only mount, another owner)
        // would make every store fail quietly: memory-only says so instead.
        guard access(directory.path, W_OK | X_OK) == 0 else {
            return .failure(DiskCacheUnavailable(reason: "\(directory.path): not writable (errno \(errno))"))
        }
        do {
            return .success(try DiskCache(configuration: DiskCache.Configuration(directory: directory)))
        } catch {
            return .failure(DiskCacheUnavailable(reason: "\(directory.path): cannot open: \(error)"))
        }
    }
}
