import Foundation
import Testing
import GlimpseCache

@Suite("Hashing")
struct HashingTests {
    /// FIPS 180-4 example vectors (NIST CSRC "Examples with Intermediate Values", SHA-256).
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func sha256MatchesKnownVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(message.utf8) == digest)
    }

    @Test func sha256OfOneMillionA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        let hex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha256IsIndependentOfChunking() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var hasher = SHA256()
        for split in stride(from: 0, to: message.count, by: 13) {
            hasher.update(message[split..<min(split + 13, message.count)])
        }
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    @Test func checksumNoticesEverySingleBitFlip() {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        let reference = Checksum64.compute(bytes)
        for index in bytes.indices {
            for bit in 0..<8 {
                var flipped = bytes
                flipped[index] ^= UInt8(1 << bit)
                #expect(Checksum64.compute(flipped) != reference)
            }
        }
        #expect(Checksum64.compute(bytes.dropLast().map { $0 }) != reference)
        #expect(Checksum64.compute([UInt8]()) != Checksum64.compute([UInt8(0)]))
    }

    /// Damage a torn or partial write leaves behind, over an entry-sized buffer that spans
    /// several 4 KiB pages, full 128-byte blocks, a 32-byte block and a byte tail.
    @Test func checksumNoticesTornAndReorderedData() {
        let count = 16 * 4096 + 128 + 32 + 7
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let reference = Checksum64.compute(bytes)
        var damaged: [(String, [UInt8])] = []
        for position in [0, 31, 32, 127, 4095, 4096, 30_000, 65_535, 65_536, 65_700, count - 1] {
            var copy = bytes
            copy[position] ^= 0x10
            damaged.append(("bit flip at \(position)", copy))
        }
        for sector in [0, 7, 64, 100, 128] {
            var copy = bytes
            let range = sector * 512..<min(sector * 512 + 512, count)
            copy.replaceSubrange(range, with: repeatElement(0, count: range.count))
            damaged.append(("zeroed sector \(sector)", copy))
        }
        var pagesSwapped = bytes
        pagesSwapped.replaceSubrange(0..<4096, with: bytes[8192..<12_288])
        pagesSwapped.replaceSubrange(8192..<12_288, with: bytes[0..<4096])
        damaged.append(("pages 0 and 2 swapped", pagesSwapped))
        var blocksSwapped = bytes
        blocksSwapped.replaceSubrange(0..<32, with: bytes[32..<64])
        blocksSwapped.replaceSubrange(32..<64, with: bytes[0..<32])
        damaged.append(("neighbouring 32-byte blocks swapped", blocksSwapped))
        var shifted = bytes
        shifted.insert(0, at: 1000)
        shifted.removeLast()
        damaged.append(("shifted by one byte", shifted))
        damaged.append(("truncated", Array(bytes.dropLast())))
        damaged.append(("truncated to whole pages", Array(bytes.prefix(16 * 4096))))
        damaged.append(("one byte appended", bytes + [0]))
        for (name, copy) in damaged {
            #expect(Checksum64.compute(copy) != reference, "\(name)")
        }
        // Chaining through the seed differs from a fresh start.
        #expect(Checksum64.compute(bytes, seed: 1) != reference)
    }
}
