import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// The generated fixtures of `Fixtures/webp-lossy` (made by its `generate.c`
/// with libwebp's encoder: odd sizes, segments, 2 and 8 token partitions, no,
/// simple and normal loop filters with sharpness, quality extremes), checked
/// against the hashes of libwebp's decode recorded in `expected.tsv`, plus the
/// decoder's contract: output at an origin inside a larger canvas, row bands,
/// limits and the defects of broken headers.
@Suite struct WebPLossyFixtureTests {
    struct Expected { let name: String; let width: Int; let height: Int; let hash: UInt64 }

    static let expected: [Expected] = {
        guard let text = try? String(contentsOf: Fixtures.url("webp-lossy/expected.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t")
            guard f.count == 4, let w = Int(f[1]), let h = Int(f[2]), let hash = UInt64(f[3], radix: 16) else { return nil }
            return Expected(name: String(f[0]), width: w, height: h, hash: hash)
        }
    }()

    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    static func payload(_ name: String) throws -> ArraySlice<UInt8> {
        try #require(LossyTestSupport.vp8Payload(try Fixtures.bytes("webp-lossy/\(name)")))
    }

    @Test func everyFixtureMatchesLibwebp() throws {
        #expect(Self.expected.count == 16)
        for fixture in Self.expected {
            let image = try LossyTestSupport.decode(try Self.payload(fixture.name))
            #expect(image.width == fixture.width && image.height == fixture.height, "\(fixture.name)")
            #expect(Self.fnv1a(image.bytes) == fixture.hash, "\(fixture.name) differs from libwebp")
        }
    }

    @Test func headerIsReadWithoutDecoding() throws {
        let header = try WebP.LossyDecoder.header(of: try Self.payload("size-17x13.webp"))
        #expect(header.width == 17 && header.height == 13)
        #expect(header.horizontalScale == 0 && header.verticalScale == 0)
        #expect(header.macroblockColumns == 2 && header.macroblockRows == 1)
    }

    @Test func framesLandAtAnOriginInsideALargerCanvas() throws {
        let payload = try Self.payload("filter-normal-sharp-3.webp")
        let alone = try LossyTestSupport.decode(payload)
        let canvasWidth = 120, canvasHeight = 80, left = 5, top = 7
        var canvas = [UInt8](repeating: 0xab, count: canvasWidth * canvasHeight * 4)
        try WebP.LossyDecoder.decode(payload, into: &canvas, origin: (top * canvasWidth + left) * 4,
                                     bytesPerRow: canvasWidth * 4)
        for y in 0..<canvasHeight {
            for x in 0..<canvasWidth {
                let inside = x >= left && x < left + alone.width && y >= top && y < top + alone.height
                let at = (y * canvasWidth + x) * 4
                let source = ((y - top) * alone.width + x - left) * 4
                let expected = inside ? Array(alone.bytes[source..<source + 4])
                                      : [0xab, 0xab, 0xab, 0xab]
                #expect(Array(canvas[at..<at + 4]) == expected, "pixel \(x),\(y)")
                if Array(canvas[at..<at + 4]) != expected { return }
            }
        }
    }

    @Test func rowBandsArriveInOrderAndAreFinal() throws {
        for name in ["filter-off.webp", "filter-simple.webp", "filter-normal-sharp-7.webp", "size-1x31.webp"] {
            let payload = try Self.payload(name)
            let final = try LossyTestSupport.decode(payload)
            var pixels = [UInt8](repeating: 0, count: final.bytes.count)
            var bands: [Range<Int>] = []
            var finalWhenReported = true
            _ = try payload.withUnsafeBytes { input in
                try pixels.withUnsafeMutableBytes { output in
                    try WebP.LossyDecoder.decode(input, into: output) { rows in
                        bands.append(rows)
                        let bytes = rows.lowerBound * final.width * 4..<rows.upperBound * final.width * 4
                        if !output[bytes].elementsEqual(final.bytes[bytes]) { finalWhenReported = false }
                    }
                }
            }
            #expect(finalWhenReported, "\(name): a reported row changed later")
            #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == final.height, "\(name)")
            #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "\(name)")
            if final.height > 16 { #expect(bands.count > 1, "\(name) arrived in one band") }
        }
    }

    @Test func limitsAndDestinationAreCheckedBeforeDecoding() throws {
        let payload = try Self.payload("size-17x13.webp")
        var small = [UInt8](repeating: 0, count: 17 * 13 * 4 - 1)
        #expect(throws: WebP.LossyDefect.destinationTooSmall.error) {
            try WebP.LossyDecoder.decode(payload, into: &small)
        }
        var pixels = [UInt8](repeating: 0, count: 17 * 13 * 4)
        #expect(throws: ImageDecodingError.limitExceeded(.width)) {
            try WebP.LossyDecoder.decode(payload, into: &pixels, limits: DecodingLimits(maxWidth: 16))
        }
        #expect(throws: ImageDecodingError.limitExceeded(.pixelsPerFrame)) {
            try WebP.LossyDecoder.decode(payload, into: &pixels, limits: DecodingLimits(maxPixelsPerFrame: 200))
        }
    }

    /// Each broken header is rejected with the defect libwebp's checks name.
    @Test func brokenHeadersAreRejected() throws {
        let good = Array(try Self.payload("segments-4.webp"))
        func decode(_ bytes: [UInt8]) throws(ImageDecodingError) {
            var pixels = [UInt8](repeating: 0, count: 97 * 61 * 4)
            try WebP.LossyDecoder.decode(bytes[...], into: &pixels)
        }
        var interFrame = good; interFrame[0] |= 1
        #expect(throws: WebP.LossyDefect.notKeyFrame.error) { try decode(interFrame) }
        var profile = good; profile[0] = (profile[0] & ~0x0e) | (5 << 1)
        #expect(throws: WebP.LossyDefect.unknownProfile(5).error) { try decode(profile) }
        var hidden = good; hidden[0] &= ~0x10
        #expect(throws: WebP.LossyDefect.invisibleFrame.error) { try decode(hidden) }
        var startCode = good; startCode[4] = 0x02
        #expect(throws: WebP.LossyDefect.badStartCode.error) { try decode(startCode) }
        var zeroWidth = good; zeroWidth[6] = 0; zeroWidth[7] &= 0xc0
        #expect(throws: WebP.LossyDefect.zeroDimension.error) { try decode(zeroWidth) }
        #expect(throws: WebP.LossyDefect.headerTruncated.error) { try decode(Array(good[..<9])) }
        var longPartition = good; longPartition[2] = 0xff
        #expect(throws: WebP.LossyDefect.firstPartitionTooLong.error) { try decode(longPartition) }
        // The first partition complete, the token partition missing entirely.
        let firstEnd = 10 + (Int(good[0]) | Int(good[1]) << 8 | Int(good[2]) << 16) >> 5
        #expect(throws: WebP.LossyDefect.tokenPartitionsMissing.error) { try decode(Array(good[..<firstEnd])) }
        // Half the token data: a token partition ends inside a macroblock.
        let half = Array(good[..<(firstEnd + (good.count - firstEnd) / 2)])
        #expect(throws: ImageDecodingError.self) { try decode(half) }
    }

    /// Damaged payloads (bytes flipped, cut anywhere) decode or throw; they never trap.
    @Test func damagedPayloadsNeverCrash() throws {
        var random = SplitMix(seed: 0x5650_3820)
        for fixture in Self.expected {
            let good = Array(try Self.payload(fixture.name))
            for _ in 0..<6 {
                var bytes = good
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                }
                if random.next() % 3 == 0 { bytes.removeLast(Int(random.next() % UInt64(bytes.count))) }
                guard let header = try? WebP.LossyDecoder.header(of: bytes[...]), header.width * header.height <= 1 << 20 else { continue }
                var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
                _ = try? WebP.LossyDecoder.decode(bytes[...], into: &pixels,
                                                  limits: DecodingLimits(maxPixelsPerFrame: 1 << 20))
            }
        }
    }
}
