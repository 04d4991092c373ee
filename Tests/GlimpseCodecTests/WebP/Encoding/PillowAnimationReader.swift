import Foundation
import TestSupport

/// libwebp's `WebPAnimDecoder`, through Pillow (`python3`, `pip install pillow`): every
/// composed frame of an animated WebP as RGBA8, with its duration and the loop count.
enum PillowAnimationReader {
    struct Animation {
        var loopCount: Int
        var durations: [Int]
        var frames: [[UInt8]]
    }

    /// Whether python3 with Pillow's WebP animation support runs here.
    static let isAvailable: Bool = {
        guard let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", "from PIL import features; assert features.check('webp')"]) else { return false }
        return result.status == 0
    }()

    static let script = """
    import sys
    from PIL import Image
    image = Image.open(sys.argv[1])
    count = getattr(image, "n_frames", 1)
    lines = [str(count), str(image.info.get("loop", 1))]
    with open(sys.argv[2], "wb") as out:
        for index in range(count):
            image.seek(index)
            out.write(image.convert("RGBA").tobytes())
            lines.append(str(image.info.get("duration", 0)))
    print(" ".join(lines))
    """

    /// libwebp's reading of `bytes`, or nil when it refuses the file.
    static func read(_ bytes: [UInt8]) throws -> Animation? {
        let directory = FileManager.default.temporaryDirectory
        let name = "glimpse-webp-anim-\(UUID().uuidString)"
        let input = directory.appendingPathComponent(name + ".webp")
        let output = directory.appendingPathComponent(name + ".rgba")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try Data(bytes).write(to: input)
        guard let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script, input.path, output.path]),
              result.status == 0 else { return nil }
        let fields = result.output.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count >= 2, fields.count == fields[0] + 2 else { return nil }
        let raw = [UInt8](try Data(contentsOf: output))
        let count = fields[0]
        guard count > 0, raw.count % count == 0 else { return nil }
        let frameBytes = raw.count / count
        let frames = (0..<count).map { Array(raw[$0 * frameBytes..<($0 + 1) * frameBytes]) }
        return Animation(loopCount: fields[1], durations: Array(fields[2...]), frames: frames)
    }
}
