import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Every lossy still of the shared corpus (libwebp's test vectors) decodes to
/// libwebp's pixels; alpha is left to the container and not compared. Debug
/// builds (where the SIMD filters are slow) check the frames up to
/// ``debugPixelLimit`` (the 176×144 test vectors and the small ones, 51 of 88)
/// plus ``debugExtras``; a release test run (`swift test -c release`) checks all.
@Suite(.enabled(if: LossyTestSupport.shared("corpus/webp") != nil && LossyTestSupport.reference != nil))
struct WebPLossyCorpusTests {
    #if DEBUG
    static let debugPixelLimit = 176 * 144
    #else
    static let debugPixelLimit = Int.max
    #endif
    /// Larger files kept in debug runs for what they cover: sharpness with the normal filter, the simple filter.
    static let debugExtras: Set<String> = ["vp80-05-sharpness-1438.webp", "test.webp"]

    @Test func everyLossyFileMatchesLibwebp() throws {
        let corpus = try #require(LossyTestSupport.shared("corpus/webp"))
        var matched = 0, mismatched: [String] = []
        for file in Fixtures.files(in: corpus, extensions: [".webp"]) {
            let bytes = try Fixtures.bytes(at: file)
            guard let payload = LossyTestSupport.vp8Payload(bytes) else { continue }
            if let header = try? WebP.LossyDecoder.header(of: payload),
               header.width * header.height > Self.debugPixelLimit,
               !Self.debugExtras.contains(file.lastPathComponent) { continue }
            let reference = LossyTestSupport.referencePixels(file)
            do {
                let image = try LossyTestSupport.decode(payload)
                guard let reference else {
                    mismatched.append("\(file.lastPathComponent): libwebp rejects it, we decode it")
                    continue
                }
                if let at = LossyTestSupport.firstRGBDifference(image, reference) {
                    mismatched.append("\(file.lastPathComponent): differs at \(at)")
                } else {
                    matched += 1
                }
            } catch {
                if reference != nil { mismatched.append("\(file.lastPathComponent): \(error)") }
            }
        }
        #expect(mismatched.isEmpty, "\(mismatched.joined(separator: "\n"))")
        #expect(matched >= (Self.debugPixelLimit == Int.max ? 88 : 50))
        print("lossy corpus: \(matched) identical")
    }
}
