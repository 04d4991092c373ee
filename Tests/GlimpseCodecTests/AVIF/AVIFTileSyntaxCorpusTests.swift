import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Every AV1 image item of `../shared/corpus/avif` (all folders) parsed through the whole
/// tile syntax: each tile must end exactly where its data ends, exit_symbol's trailing-bit
/// and padding checks passing (a parse that loses synchronisation almost surely fails them).
/// Files the container stage refuses (the ones libavif rejects, per the corpus README) have
/// no items to parse.
///
/// Debug builds parse the files up to 64 KiB (76 of the 162; all of them took 306 s of CI's
/// debug run, most of it in the 1–3 MB lossless Netflix files); release builds parse every file
/// (`swift test -c release --filter AVIFTileSyntaxCorpusTests`).
@Suite struct AVIFTileSyntaxCorpusTests {
    static let files = AVIFCorpusTests.files.filter { url in
        #if DEBUG
        ((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? .max) <= 64 << 10
        #else
        true
        #endif
    }

    /// Files whose key frames use intra block copy (`use_intrabc`, screen content tools):
    /// their syntax parses; their prediction needs the motion-vector prediction process.
    static let intraBlockCopyFiles: Set<String> = [
        "Monochrome.avif", "Ronda_rotate90.avif", "Tomsk_with_thumbnails.avif", "bbb_4k.avif",
        "reduced_still_picture_header.avif", "still_picture.avif",
    ]

    @Test(.enabled(if: !files.isEmpty), arguments: files)
    func everyTileParsesToItsEnd(_ url: URL) throws {
        let outcome = AVIFTileParsing.parse(try Fixtures.bytes(at: url))
        if outcome.containerError != nil && outcome.items.isEmpty {
            try Test.cancel("\(url.lastPathComponent): refused before the tiles (\(String(describing: outcome.containerError)))")
        }
        #expect(!outcome.items.isEmpty, "\(url.lastPathComponent): no coded item")
        for item in outcome.items {
            #expect(item.error == nil, "\(url.lastPathComponent) item \(item.id): \(String(describing: item.error))")
        }
        #expect(outcome.intraBlockCopyBlocks > 0 || !Self.intraBlockCopyFiles.contains(url.lastPathComponent),
                "\(url.lastPathComponent): intra block copy blocks")
    }
}
