import ArgumentParser
import Foundation
import Glimpse
import GlimpseCache

/// Shared pieces of the pipeline commands (`fetch`, `cache`, `demo`, `bench-pipeline`).
enum PipelineSupport {
    /// The disk cache's default directory for the CLI's images.
    static var defaultCacheDirectory: URL { DiskCache.Configuration(namespace: "images").directory }

    static func openDisk(_ path: String?) throws(CommandFailure) -> DiskCache {
        let directory = path.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultCacheDirectory
        do {
            return try DiskCache(configuration: DiskCache.Configuration(directory: directory))
        } catch {
            throw CommandFailure("\(directory.path): cannot open the cache: \(error)")
        }
    }

    /// The disk tier for `fetch`, or nil after one `warning:` line on standard error when the
    /// folder cannot be created or written: a cache only saves work, so the load carries on with
    /// the memory tier. (A container with a read-only root and no `HOME` is the usual case.)
    static func openDiskIfWritable(_ path: String?) -> DiskCache? {
        let directory = path.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultCacheDirectory
        let problem: String
        do {
            let disk = try DiskCache(configuration: DiskCache.Configuration(directory: directory))
            // An existing folder opens fine yet may refuse writes (a read-only mount): the disk
            // tier would then drop every store silently.
            if access(disk.path, W_OK | X_OK) == 0 { return disk }
            problem = "is not writable (\(String(cString: strerror(errno))))"
        } catch {
            problem = "cannot be created"
        }
        Terminal.standardError("warning: cache folder \(directory.path) \(problem); caching in memory only")
        return nil
    }

    /// `WxH` → a resize that fits the image in that box.
    static func thumbnail(_ text: String) throws -> ImageTransformers.Resize {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0,
              width <= 65_535, height <= 65_535 else {
            throw ValidationError("--thumbnail must be WIDTHxHEIGHT with positive sizes, e.g. 128x128")
        }
        return ImageTransformers.Resize(width: width, height: height, mode: .fit, allowsUpscaling: false)
    }

    /// A result line: `URL: ok tier=… FORMAT WxH frames=N ms=T` or `URL: error <reason>`,
    /// the URL as ``shown(_:)`` writes it.
    static func line(_ url: String, _ result: Result<ImageResult, ImageLoadError>, milliseconds: Double) -> String {
        let url = shown(url)
        return switch result {
        case .success(let loaded):
            "\(url): ok tier=\(loaded.tier) \(loaded.image.format.rawValue.uppercased()) "
                + "\(loaded.image.width)x\(loaded.image.height) frames=\(loaded.image.frames.count) "
                + "ms=\(String(format: "%.1f", milliseconds))"
        case .failure(let error):
            "\(url): error \(error)"
        }
    }

    /// A URL as the command prints it: as logs write it (``GlimpseObservability/redacted(_:)``:
    /// no credentials, query or fragment, where signed URLs carry their secrets), or as typed
    /// when it does not parse, so that the user sees what was refused.
    static func shown(_ url: String) -> String {
        URL(string: url).map(GlimpseObservability.redacted) ?? url
    }

    /// `URL: timings tier=T queue=MS …` for `glimpse fetch --timings`: the URL as logs
    /// write it (no credentials, query or fragment), then the load's metrics.
    static func timingsLine(_ url: String, _ metrics: ImageTask.Metrics) -> String {
        "\(shown(url)): timings \(metrics)"
    }

    /// Encodes the first frame as PNG.
    static func png(_ image: Image) throws(CommandFailure) -> [UInt8] {
        do {
            return try PNG.Encoder().encode(image.pixels, metadata: image.metadata)
        } catch {
            throw CommandFailure("cannot encode PNG: \(error)")
        }
    }


}
