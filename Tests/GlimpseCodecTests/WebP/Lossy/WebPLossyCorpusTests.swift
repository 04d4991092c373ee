import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Every lossy still of the shared corpus (libwebp's test vectors) decodes to
/// libwebp's pixels; alpha is left to the container and not compared.
@Suite(.enabled(if: LossyTestSupport.shared("corpus/webp") != nil && LossyTestSupport.reference != nil))
struct WebPLossyCorpusTests {
    @Test func everyLossyFileMatchesLibwebp() throws {
        let corpus = try #require(LossyTestSupport.shared("corpus/webp"))
        var matched = 0, mismatched: [String] = []
        for file in Fixtures.files(in: corpus, extensions: [".webp"]) {
            let bytes = try Fixtures.bytes(at: file)
            guard let payload = LossyTestSupport.vp8Payload(bytes) else { continue }
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
        #expect(matched >= 70)
        print("lossy corpus: \(matched) identical")
    }
}
