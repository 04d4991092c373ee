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
        standard(environment: environment, downloader: ImageDownloader())
    }

    /// ``standard(environment:)`` for servers that load URLs their users supply
    /// (imgproxy's and imagor's defaults):
    /// - the downloader's ``ImageDownloader/Configuration/server`` profile: public
    ///   addresses only on every hop, 5 redirects, a 30 s deadline and a minimum
    ///   rate, responses of at most 32 MiB, bodies that are plainly not images
    ///   refused from the response head;
    /// - ``decodingLimits`` of 50 megapixels per frame, 256 MiB per image (the
    ///   decoded pixels and the decoder's working memory) and 1,000 frames, so one
    ///   hostile file cannot take a server's memory (imgproxy allows 16.8 MP,
    ///   thumbor 75 MP);
    /// - `file` URLs are not read (``readsFileURLs``): the downloader refuses them;
    /// - the bound on bytes held by queued and running decodes
    ///   (``maximumProcessingBytes``, 64 MB) as in every configuration.
    ///
    /// - Parameter downloader: the downloader's configuration, ``ImageDownloader/Configuration/server``
    ///   by default; pass it changed to allow hosts of one's own (``AddressPolicy/allowed``) or
    ///   to set its logger, without building a second downloader.
    public static func server(environment: [String: String] = ProcessInfo.processInfo.environment,
                              downloader: ImageDownloader.Configuration = .server) -> Self {
        var configuration = standard(environment: environment,
                                     downloader: ImageDownloader(configuration: downloader))
        configuration.decodingLimits = .server
        configuration.readsFileURLs = false
        return configuration
    }

    private static func standard(environment: [String: String], downloader: ImageDownloader) -> Self {
        let memory = MemoryCache<String, Image>(configuration: .images())
        let disk: DiskCache?
        let reason: String?
        switch openStandardDiskCache(environment: environment) {
        case .success(let opened):
            (disk, reason) = (opened, nil)
        case .failure(let failure):
            (disk, reason) = (nil, failure.reason)
        }
        var configuration = Self(downloader: downloader, cache: ImageCache(memory: memory, disk: disk))
        configuration.memoryOnlyReason = reason
        return configuration
    }

    struct DiskCacheUnavailable: Error {
        var reason: String
    }

    /// `images` under ``DiskCache/Configuration/standardRoot(environment:)``
    /// (`$XDG_CACHE_HOME/glimpse/images` or `$HOME/.cache/glimpse/images`), created and
    /// checked for writing.
    static func openStandardDiskCache(environment: [String: String]) -> Result<DiskCache, DiskCacheUnavailable> {
        guard let root = DiskCache.Configuration.standardRoot(environment: environment) else {
            return .failure(DiskCacheUnavailable(reason: "no cache folder: neither XDG_CACHE_HOME nor HOME is an absolute path"))
        }
        let directory = root.appendingPathComponent("images", isDirectory: true)
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
