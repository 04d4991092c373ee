import Foundation
import GlimpseCodec
import TestSupport

/// LittleCMS 2 (through Pillow's `ImageCms`) converting a test pattern from every
/// installed RGB, grey and CMYK profile (Debian's icc-profiles-free, colord-data,
/// libgs-common) to its built-in sRGB, in one Python run shared by the tests.
enum LittleCMSReference {
    /// One profile's pattern and what LittleCMS made of it.
    struct Conversion: Sendable {
        let profile: URL
        let intent: ICC.RenderingIntent
        /// Device samples: 3 a pixel for RGB, 1 for grey, 4 for CMYK.
        let input: [UInt8]
        /// sRGB, 3 a pixel.
        let output: [UInt8]
    }

    /// Where Debian installs ICC profiles.
    static let profileRoots = ["/usr/share/color/icc", "/usr/share/ghostscript"]

    /// Every `.icc`/`.icm` file under ``profileRoots``, sorted, resolved for duplicates.
    static let profiles: [URL] = {
        var seen = Set<String>()
        var found = [URL]()
        for root in profileRoots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let path = walker.nextObject() as? String {
                let lower = path.lowercased()
                guard lower.hasSuffix(".icc") || lower.hasSuffix(".icm") else { continue }
                let url = URL(fileURLWithPath: root).appendingPathComponent(path).resolvingSymlinksInPath()
                if seen.insert(url.path).inserted { found.append(url) }
            }
        }
        return found.sorted { $0.path < $1.path }
    }()

    /// Whether python3 with Pillow's ImageCms runs here and profiles are installed.
    static let isAvailable: Bool = {
        guard !profiles.isEmpty, let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", "from PIL import ImageCms"]) else { return false }
        return result.status == 0
    }()

    /// Whether the LittleCMS behind Pillow makes the detected black point neutral before
    /// black point compensation. 2.18 and 2.19 do not (their commit bb60a46 dropped
    /// `Lab.a = Lab.b = 0` from `BlackPointAsDarkerColorant` by mistake; upstream's
    /// 6a5a890 restored it), which moves CMYK shadows by up to 3 levels. Glimpse
    /// neutralises, as every other LittleCMS release does; tests against 2.18–2.19
    /// build their transforms without it to check the rest of the model exactly.
    static let neutralizesBlackPoint: Bool = {
        guard let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", "from PIL import features; print(features.version('littlecms2'))"]),
              result.status == 0 else { return true }
        let parts = result.output.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard parts.count >= 2 else { return true }
        return !(parts[0] == 2 && (18...19).contains(parts[1]))
    }()

    /// Conversions keyed by "<path>#<intent>": perceptual for every profile, relative colorimetric too.
    static let conversions: [String: Conversion] = {
        guard isAvailable else { return [:] }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-lcms-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script, directory.path] + profiles.map(\.path)),
              result.status == 0 else { return [:] }
        var conversions = [String: Conversion]()
        for (index, profile) in profiles.enumerated() {
            for intent in [ICC.RenderingIntent.perceptual, .relativeColorimetric] {
                let stem = directory.appendingPathComponent("\(index)-\(intent.rawValue)")
                guard let input = try? [UInt8](Data(contentsOf: stem.appendingPathExtension("in"))),
                      let output = try? [UInt8](Data(contentsOf: stem.appendingPathExtension("out"))) else { continue }
                conversions[key(profile, intent)] = Conversion(profile: profile, intent: intent, input: input, output: output)
            }
        }
        return conversions
    }()

    static func key(_ profile: URL, _ intent: ICC.RenderingIntent) -> String { "\(profile.path)#\(intent.rawValue)" }

    /// The pattern: a 32-level RGB cube, all 256 greys, a 10-level CMYK hypercube;
    /// profiles LittleCMS will not use as input (abstract, named colour, link, Lab) are skipped.
    static let script = """
    import sys
    from PIL import Image, ImageCms
    out = sys.argv[1]
    srgb = ImageCms.createProfile("sRGB")
    def levels(n): return [round(i * 255 / (n - 1)) for i in range(n)]
    patterns = {
        "RGB": bytes(v for r in levels(32) for g in levels(32) for b in levels(32) for v in (r, g, b)),
        "L": bytes(range(256)),
        "CMYK": bytes(v for c in levels(10) for m in levels(10) for y in levels(10) for k in levels(10) for v in (c, m, y, k)),
    }
    for index, path in enumerate(sys.argv[2:]):
        try:
            profile = ImageCms.ImageCmsProfile(path)
        except Exception:
            continue
        mode = {"RGB": "RGB", "GRAY": "L", "CMYK": "CMYK"}.get(profile.profile.xcolor_space.strip())
        if mode is None or profile.profile.device_class.strip() in ("abst", "nmcl", "link"):
            continue
        data = patterns[mode]
        image = Image.frombytes(mode, (len(data) // len(mode), 1), data)
        for intent in (0, 1):
            try:
                converted = ImageCms.profileToProfile(image, profile, srgb, renderingIntent=intent, outputMode="RGB")
            except Exception:
                continue
            open(f"{out}/{index}-{intent}.in", "wb").write(data)
            open(f"{out}/{index}-{intent}.out", "wb").write(converted.tobytes())
    """
}
