import ArgumentParser
import Foundation
import GlimpseCodec

/// `glimpse info FILE...`: format, size and frame count of each file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size and frame count of image files.",
        discussion: "One line per file: `FILE: FORMAT WIDTHxHEIGHT frames=N` (frames when known). Formats Glimpse recognises but does not decode are reported by name only. --json decodes each file whole, lists what was recovered from damage under \"warnings\" and names the colour description (the ICC profile's description, class, colour space and version, and whether it is sRGB; PNG gAMA, cHRM, sRGB and cICP)."
    )

    @Argument(help: "Image files.")
    var files: [String]

    @Flag(help: "Print one JSON object per file, with metadata.")
    var json = false

    func run() throws {
        var failed = false
        for file in files {
            do throws(CommandFailure) {
                let report = try Self.inspect(file, wholeFile: json)
                print(json ? report.json : report.line)
            } catch {
                Terminal.error(error.message)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// What `info` learns about one file.
    struct Report {
        var file: String
        var sniffed: SniffedFormat
        var info: ImageInfo?
        var frames: Int?
        /// What the decoder recovered from; `nil` when the file was not decoded whole.
        var warnings: [DecodingWarning]?

        var line: String {
            guard let info else { return "\(file): \(sniffed.format)" }
            return "\(file): \(info.format) \(info.width)x\(info.height)" + (frames.map { " frames=\($0)" } ?? "")
        }

        var json: String {
            var object: [String: Any] = ["file": file, "format": (info?.format ?? sniffed.format).description, "detail": sniffed.description]
            if let info {
                object["width"] = info.width
                object["height"] = info.height
                object["animated"] = info.isAnimated
                object["hasAlpha"] = info.hasAlpha
                if let bitDepth = info.bitDepth { object["bitDepth"] = bitDepth }
                var metadata: [String: Any] = ["orientation": info.metadata.orientation.rawValue]
                if let icc = info.metadata.iccProfile {
                    metadata["iccProfileBytes"] = icc.count
                    metadata["iccProfile"] = Self.describe(icc)
                }
                if let c = info.metadata.chromaticities {
                    metadata["chromaticities"] = ["white": [c.whiteX, c.whiteY], "red": [c.redX, c.redY],
                                                  "green": [c.greenX, c.greenY], "blue": [c.blueX, c.blueY]]
                }
                if let density = info.metadata.density {
                    metadata["density"] = ["x": density.horizontal, "y": density.vertical, "unit": "\(density.unit)"]
                }
                if let gamma = info.metadata.gamma { metadata["gamma"] = gamma }
                if let intent = info.metadata.sRGBIntent { metadata["sRGBIntent"] = Int(intent) }
                if let cicp = info.metadata.cicp { metadata["cicp"] = cicp.description }
                if let exif = info.metadata.exif { metadata["exifBytes"] = exif.count }
                if let xmp = info.metadata.xmp { metadata["xmpBytes"] = xmp.count }
                object["metadata"] = metadata
            }
            if let frames { object["frames"] = frames }
            if let warnings { object["warnings"] = warnings.map(\.description) }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }

        /// An ICC profile as `info --json` names it: its description, class, colour space,
        /// connection space and version, and whether it is sRGB (by colorants and curves, so
        /// converting costs nothing); or why it cannot be used.
        static func describe(_ icc: [UInt8]) -> [String: Any] {
            let profile: ICC.Profile
            do {
                profile = try ICC.Profile(parsing: icc)
            } catch {
                return ["error": "\(error)"]
            }
            var described: [String: Any] = [
                "class": profile.deviceClass.description.trimmingCharacters(in: .whitespaces),
                "colorSpace": profile.colorSpace.description.trimmingCharacters(in: .whitespaces),
                "connectionSpace": profile.connectionSpace.description.trimmingCharacters(in: .whitespaces),
                "version": "\(profile.version.major).\(profile.version.minor)",
            ]
            if let text = profile.profileDescription { described["description"] = text }
            do {
                described["isSRGB"] = try ColorTransform(source: profile).isIdentity
            } catch {
                described["error"] = "\(error)"
            }
            return described
        }
    }

    /// Feeds the file to the decoder only as far as needed: the header gives the
    /// size; the frame count may need the whole file (GIF); the warnings need the
    /// whole file (`wholeFile`).
    static func inspect(_ file: String, wholeFile: Bool = false) throws(CommandFailure) -> Report {
        let bytes = try ImageFiles.read(file)
        let registry = DecoderRegistry.standard
        let sniffed: SniffedFormat
        switch FormatSniffer.sniff(bytes, atEnd: true) {
        case .detected(let format): sniffed = format
        case .needMoreData: sniffed = SniffedFormat(.unknown)
        }
        if sniffed.format == .unknown { throw CommandFailure("\(file): \(ImageDecodingError.unsupportedFormat(.unknown))") }
        if registry.decoder(for: sniffed.format) == nil { return Report(file: file, sniffed: sniffed) }

        var decoder = AutoDecoder(registry: registry)
        let chunk = 64 * 1024
        var offset = 0
        // The header's info, kept: a decoder that fails later (an AVIF, whose pixels are not
        // decoded yet) forgets it.
        var known: ImageInfo?
        do throws(ImageDecodingError) {
            while offset < bytes.count {
                let end = min(offset + chunk, bytes.count)
                let status = try decoder.append(bytes[offset..<end])
                known = decoder.info ?? known
                offset = end
                if !wholeFile, let info = decoder.info, let frames = info.frameCount {
                    return Report(file: file, sniffed: sniffed, info: info, frames: frames)
                }
                // The file is all here: an animated WebP's frames are counted from its chunk
                // headers without decoding them.
                if !wholeFile, let info = decoder.info, info.isAnimated, info.format == .webp,
                   let frames = WebP.FrameIterator(bytes).frameCount {
                    return Report(file: file, sniffed: sniffed, info: info, frames: frames)
                }
                if status == .complete { break }
            }
            let image = try decoder.finish()
            return Report(file: file, sniffed: sniffed, info: decoder.info, frames: image.frames.count, warnings: image.warnings)
        } catch {
            // A file that breaks after its header still has a size worth reporting.
            if let info = decoder.info ?? known { return Report(file: file, sniffed: sniffed, info: info, frames: info.frameCount) }
            throw CommandFailure("\(file): \(error)")
        }
    }
}
