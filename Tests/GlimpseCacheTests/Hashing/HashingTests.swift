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
}
