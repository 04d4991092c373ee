import GlimpseCodec
import TestSupport

/// Helpers shared by the JPEG suites.
enum JPEGTestSupport {
    struct Fixture: Sendable, CustomStringConvertible {
        var name: String
        var scales: [Int]
        var note: String
        var description: String { name }
    }

    /// The fixtures listed in `Fixtures/jpeg/manifest.txt` (written by `generate.py`).
    static let fixtures: [Fixture] = {
        guard let text = try? Fixtures.bytes("jpeg/manifest.txt") else { return [] }
        return String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3 else { return nil }
            let scales = fields[1].split(separator: ",").compactMap { Int($0) }
            return Fixture(name: String(fields[0]), scales: scales, note: String(fields[2]))
        }
    }()

    /// Fixtures libjpeg-turbo decodes and we must too (not the arithmetic-coded one).
    static var decodableFixtures: [Fixture] { fixtures.filter { !$0.name.contains("arithmetic") } }

    static func bytes(_ fixture: Fixture) throws -> [UInt8] {
        try Fixtures.bytes("jpeg/\(fixture.name)")
    }

    static func reference(_ fixture: Fixture, scale: Int) throws -> PixelBuffer {
        let stem = fixture.name.replacingOccurrences(of: ".jpg", with: "")
        return try PAM.decode(Fixtures.bytes("jpeg/reference/\(stem).s\(scale).pam"))
    }

    struct Comparison: Sendable {
        var identicalPixels: Int
        var pixels: Int
        var maxDifference: Int
        var sameSize: Bool
        var identicalFraction: Double { pixels == 0 ? 1 : Double(identicalPixels) / Double(pixels) }
    }

    static func compare(_ a: PixelBuffer, _ b: PixelBuffer) -> Comparison {
        guard a.width == b.width, a.height == b.height, a.format == .rgba8, b.format == .rgba8 else {
            return Comparison(identicalPixels: 0, pixels: max(1, b.pixelCount), maxDifference: 255, sameSize: false)
        }
        var identical = 0, maxDifference = 0
        a.bytes.withUnsafeBufferPointer { x in
            b.bytes.withUnsafeBufferPointer { y in
                for p in 0..<a.pixelCount {
                    var same = true
                    for c in 0..<4 {
                        let d = abs(Int(x[4 * p + c]) - Int(y[4 * p + c]))
                        if d != 0 { same = false; maxDifference = max(maxDifference, d) }
                    }
                    if same { identical += 1 }
                }
            }
        }
        return Comparison(identicalPixels: identical, pixels: a.pixelCount, maxDifference: maxDifference, sameSize: true)
    }
}
