import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The shared corpus against libwebp: stills (and first frames) against `refdecode`
/// (`WebPDecodeRGBA`, `WebPAnimDecoder`), every frame of every animation against Pillow's
/// (libwebp's `WebPAnimDecoder`, recorded in `Fixtures/webp/pillow-anim-frames.tsv`).
@Suite struct WebPCorpusTests {
    typealias T = WebPTestSupport

    /// Debug builds skip stills above this many pixels (release runs them all).
    static var pixelBudget: Int {
        #if DEBUG
        1 << 17
        #else
        Int.max
        #endif
    }

    @Test(.enabled(if: T.shared("corpus/webp") != nil && ReferenceDecoder.executable != nil))
    func stillsMatchLibwebp() throws {
        let folder = try #require(T.shared("corpus/webp"))
        var identical = 0, rejectedByBoth = 0, skipped = 0
        for url in Fixtures.files(in: folder, extensions: [".webp"]) {
            let bytes = try Fixtures.bytes(at: url)
            var probe = WebP.Decoder(options: DecodingOptions())
            _ = try? probe.append(bytes.prefix(64))
            if let info = probe.info, info.width * info.height > Self.pixelBudget { skipped += 1; continue }
            let reference = ReferenceDecoder.decode(url)
            let ours = Result { () throws(ImageDecodingError) in try WebP.Decoder.decode(bytes) }
            switch (ours, reference) {
            case (.success(let image), .some(let expected)):
                #expect(image.pixels == expected, "\(url.lastPathComponent) differs from libwebp")
                if image.pixels == expected { identical += 1 }
            case (.failure, nil):
                rejectedByBoth += 1
            case (.success, nil):
                Issue.record("\(url.lastPathComponent): libwebp rejects it, Glimpse decodes it")
            case (.failure(let error), .some):
                Issue.record("\(url.lastPathComponent): libwebp decodes it, Glimpse fails: \(error)")
            }
        }
        #expect(identical + rejectedByBoth + skipped >= 130)
    }

    /// Every frame (composed canvas, duration) and the loop count of the corpus animations and the
    /// bench pans, streamed through `WebP.FrameIterator` in 4 KiB pieces.
    @Test(.enabled(if: T.sharedRoot != nil))
    func animationsMatchPillow() throws {
        let shared = try #require(T.sharedRoot)
        var files = 0, frames = 0
        for (name, expected) in T.pillow.frames.sorted(by: { $0.key < $1.key }) {
            let url = shared.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let bytes = try Fixtures.bytes(at: url)
            #expect(WebP.FrameIterator(bytes).frameCount == expected.count, "\(name): frames counted from the chunk headers")
            #if DEBUG
            // Debug builds skip the long ones (sample_big, muybridge, the bench pans: 5-50 Mi pixels
            // of frames); release runs them all.
            var probe = WebP.Decoder(options: DecodingOptions())
            _ = try? probe.append(bytes.prefix(64))
            if let info = probe.info, info.width * info.height * expected.count > 4 << 20 { continue }
            #endif
            var iterator = WebP.FrameIterator(options: DecodingOptions())
            var index = 0
            let opaque = T.pillow.opaqueInPillow.contains(name)
            func check(_ frame: ImageFrame) {
                guard index < expected.count else { Issue.record("\(name): extra frame \(index)"); return }
                #expect(T.crc(frame, opaque: opaque) == expected[index].crc, "\(name) frame \(index)")
                #expect(frame.duration == .milliseconds(expected[index].duration), "\(name) frame \(index) duration")
                index += 1
            }
            for start in stride(from: 0, to: bytes.count, by: 4096) {
                iterator.append(bytes[start..<min(start + 4096, bytes.count)])
                while let frame = try iterator.next() { check(frame) }
            }
            iterator.endOfInput()
            while let frame = try iterator.next() { check(frame) }
            #expect(index == expected.count, "\(name): \(index) frames of \(expected.count)")
            #expect(iterator.loopCount == T.pillow.loops[name], "\(name) loop count")
            files += 1
            frames += index
        }
        #expect(files >= 41)
        #expect(T.pillow.rejected.isEmpty)
    }

    /// First composed frames against `refdecode` (the installed libwebp's WebPAnimDecoder), exactly,
    /// alpha included (Pillow drops it for files without the VP8X alpha flag).
    @Test(.enabled(if: T.shared("corpus/webp/anim") != nil && ReferenceDecoder.executable != nil))
    func firstFramesMatchRefdecode() throws {
        let folder = try #require(T.shared("corpus/webp/anim"))
        var compared = 0
        for url in Fixtures.files(in: folder, extensions: [".webp"]) {
            guard let expected = ReferenceDecoder.decode(url) else { continue }
            var options = DecodingOptions()
            options.firstFrameOnly = true
            let image = try WebP.Decoder.decode(try Fixtures.bytes(at: url), options: options)
            #expect(image.pixels == expected, "\(url.lastPathComponent)")
            compared += 1
        }
        #expect(compared >= 43)
    }
}
