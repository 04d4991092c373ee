import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Hand-made VP8L streams at the edges of what libwebp accepts (prefix codes with
/// one symbol, symbols outside the alphabet, incomplete and over-subscribed codes,
/// repeated transforms, colour cache sizes, backward references before the first
/// pixel). Each is checked against libwebp when refdecode is available, and
/// against the outcome libwebp's source (`vp8l_dec.c`, `huffman_utils.c`) gives.
struct WebPLosslessAcceptanceTests {
    /// Writes bits least-significant first, as VP8L reads them (RFC 9649 §3.3).
    struct BitWriter {
        var bytes: [UInt8] = []
        var used = 0

        mutating func write(_ value: Int, _ count: Int) {
            for bit in 0..<count {
                if used % 8 == 0 { bytes.append(0) }
                if (value >> bit) & 1 == 1 { bytes[bytes.count - 1] |= UInt8(1 << (used % 8)) }
                used += 1
            }
        }

        /// A prefix code's bits, most significant first (RFC 9649 §3.7.1).
        mutating func writeCode(_ code: Int, _ length: Int) {
            for bit in stride(from: length - 1, through: 0, by: -1) { write((code >> bit) & 1, 1) }
        }

        mutating func header(width: Int, height: Int) {
            write(0x2f, 8)
            write(width - 1, 14)
            write(height - 1, 14)
            write(1, 1)
            write(0, 3)
        }

        /// A simple code of one symbol (RFC 9649 §3.7.2.1.1).
        mutating func simpleCode(_ symbol: Int) {
            write(1, 1)
            write(0, 1)
            write(1, 1)
            write(symbol, 8)
        }

        mutating func simpleCode(_ first: Int, _ second: Int) {
            write(1, 1)
            write(1, 1)
            write(1, 1)
            write(first, 8)
            write(second, 8)
        }

        /// A normal code giving `lengths` (symbol → length 0…2) over `alphabetSize`
        /// symbols, through a code-length code over {0: "0", 1: "10", 2: "11"}.
        mutating func normalCode(alphabetSize: Int, lengths: [Int: Int]) {
            write(0, 1)
            write(5 - 4, 4)                       // five code-length code lengths: 17, 18, 0, 1, 2
            for length in [0, 0, 1, 2, 2] { write(length, 3) }
            write(0, 1)                           // max_symbol = alphabet size
            for symbol in 0..<alphabetSize {
                switch lengths[symbol] ?? 0 {
                case 0: writeCode(0b0, 1)
                case 1: writeCode(0b10, 2)
                default: writeCode(0b11, 2)
                }
            }
        }

        /// The RIFF file around this VP8L stream.
        var file: [UInt8] {
            var payload = bytes
            let size = payload.count
            if size % 2 == 1 { payload.append(0) }
            func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
            return Array("RIFF".utf8) + le(4 + 8 + payload.count) + Array("WEBPVP8L".utf8) + le(size) + payload
        }
    }

    /// A 3×2 image with no transforms and no cache whose five codes `codes` writes.
    static func stream(width: Int = 3, height: Int = 2, prefix: (inout BitWriter) -> Void = { _ in },
                       codes: (inout BitWriter) -> Void, pixels: (inout BitWriter) -> Void = { _ in }) -> BitWriter {
        var writer = BitWriter()
        writer.header(width: width, height: height)
        prefix(&writer)
        codes(&writer)
        pixels(&writer)
        return writer
    }

    static func constantCodes(_ writer: inout BitWriter, green: Int = 10) {
        writer.write(0, 1)    // no transform
        writer.write(0, 1)    // no colour cache
        writer.write(0, 1)    // no meta codes
        writer.simpleCode(green)
        writer.simpleCode(20)
        writer.simpleCode(30)
        writer.simpleCode(255)
        writer.simpleCode(0)
    }

    /// Glimpse's outcome, checked against libwebp's when refdecode is available.
    static func decode(_ writer: BitWriter, expectAccepted: Bool,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> PixelBuffer? {
        let file = writer.file
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(file))
        let ours = try? WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits())
        #expect((ours != nil) == expectAccepted, "Glimpse", sourceLocation: sourceLocation)
        if ReferenceDecoder.executable != nil {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("vp8l-\(UUID().uuidString).webp")
            try Data(file).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let reference = ReferenceDecoder.decode(url)
            #expect((reference != nil) == expectAccepted, "libwebp", sourceLocation: sourceLocation)
            #expect(reference?.bytes == ours?.bytes, "pixels", sourceLocation: sourceLocation)
        }
        return ours
    }

    @Test func singleSymbolCodesReadNoBits() throws {
        let image = try Self.decode(Self.stream { Self.constantCodes(&$0) }, expectAccepted: true)
        #expect(image?.bytes == [UInt8](repeating: 0, count: 6).flatMap { _ in [20, 10, 30, 255] })
    }

    @Test func twoEqualSimpleSymbolsAreOneSymbol() throws {
        let writer = Self.stream { writer in
            for _ in 0..<3 { writer.write(0, 1) }
            writer.simpleCode(10, 10)
            writer.simpleCode(20)
            writer.simpleCode(30)
            writer.simpleCode(255)
            writer.simpleCode(0)
        }
        _ = try Self.decode(writer, expectAccepted: true)
    }

    @Test func simpleSymbolsBeyondTheAlphabetAreIgnored() throws {
        // Distance alphabet has 40 symbols: 200 alone leaves the code empty …
        let empty = Self.stream { writer in
            for _ in 0..<3 { writer.write(0, 1) }
            for symbol in [10, 20, 30, 255] { writer.simpleCode(symbol) }
            writer.simpleCode(200)
        }
        _ = try Self.decode(empty, expectAccepted: false)
        // … and beside a valid symbol it is dropped, leaving a one-symbol code.
        let single = Self.stream { writer in
            for _ in 0..<3 { writer.write(0, 1) }
            for symbol in [10, 20, 30, 255] { writer.simpleCode(symbol) }
            writer.simpleCode(3, 200)
        }
        _ = try Self.decode(single, expectAccepted: true)
    }

    /// Green over 280 symbols from a normal code; the other four single-symbol.
    static func normalGreen(_ lengths: [Int: Int]) -> (inout BitWriter) -> Void {
        { writer in
            for _ in 0..<3 { writer.write(0, 1) }
            writer.normalCode(alphabetSize: 280, lengths: lengths)
            for symbol in [20, 30, 255, 0] { writer.simpleCode(symbol) }
        }
    }

    @Test func normalCodesMustBeCompleteUnlessSingle() throws {
        let pixelBits: (inout BitWriter) -> Void = { writer in for _ in 0..<6 { writer.write(0, 1) } }
        _ = try Self.decode(Self.stream(codes: Self.normalGreen([0: 1, 1: 1]), pixels: pixelBits), expectAccepted: true)
        _ = try Self.decode(Self.stream(codes: Self.normalGreen([0: 1, 1: 2])), expectAccepted: false)
        _ = try Self.decode(Self.stream(codes: Self.normalGreen([0: 1, 1: 1, 2: 2])), expectAccepted: false)
        _ = try Self.decode(Self.stream(codes: Self.normalGreen([7: 2])), expectAccepted: true)
    }

    @Test func backwardReferenceBeforeTheFirstPixelIsRejected() throws {
        // Green {0: "0", 256: "1"}: the first pixel is a copy of length 1 at distance code 1.
        let writer = Self.stream(codes: Self.normalGreen([0: 1, 256: 1])) { writer in writer.write(1, 1) }
        _ = try Self.decode(writer, expectAccepted: false)
        // The same copy after one literal row is fine (distance code 1 = one row up).
        let valid = Self.stream(codes: Self.normalGreen([0: 1, 256: 1])) { writer in
            for _ in 0..<3 { writer.write(0, 1) }
            for _ in 0..<3 { writer.write(1, 1) }
        }
        _ = try Self.decode(valid, expectAccepted: true)
    }

    @Test func transformsAppearAtMostOnce() throws {
        let twice = Self.stream(codes: { writer in
            writer.write(1, 1); writer.write(2, 2)   // subtract green
            writer.write(1, 1); writer.write(2, 2)   // again
            writer.write(0, 1)
            writer.write(0, 1); writer.write(0, 1)
            for symbol in [10, 20, 30, 255, 0] { writer.simpleCode(symbol) }
        })
        _ = try Self.decode(twice, expectAccepted: false)
        let chunk = try #require(WebPLosslessTestSupport.vp8lChunk(twice.file))
        #expect(throws: ImageDecodingError.malformed(.webp(.lossless(.repeatedTransform(2))))) {
            try WebP.LosslessDecoder.decode(chunk.rest, limits: DecodingLimits())
        }
        let once = Self.stream(codes: { writer in
            writer.write(1, 1); writer.write(2, 2)
            writer.write(0, 1)
            writer.write(0, 1); writer.write(0, 1)
            for symbol in [10, 20, 30, 255, 0] { writer.simpleCode(symbol) }
        })
        let image = try Self.decode(once, expectAccepted: true)
        #expect(image?.bytes.prefix(4) == [30, 10, 40, 255])
    }

    @Test func colourCacheBitsMustBeOneToEleven() throws {
        for (bits, accepted) in [(0, false), (1, true), (11, true), (12, false)] {
            let writer = Self.stream(codes: { writer in
                writer.write(0, 1)
                writer.write(1, 1); writer.write(bits, 4)
                writer.write(0, 1)
                for symbol in [10, 20, 30, 255, 0] { writer.simpleCode(symbol) }
            })
            _ = try Self.decode(writer, expectAccepted: accepted)
        }
    }

    @Test func signatureAndVersionAreChecked() throws {
        var good = BitWriter()
        good.header(width: 3, height: 2)
        #expect(try WebP.LosslessDecoder.readHeader(good.bytes[...]).width == 3)
        var badSignature = good.bytes
        badSignature[0] = 0x2e
        #expect(throws: ImageDecodingError.self) { try WebP.LosslessDecoder.readHeader(badSignature[...]) }
        var badVersion = good.bytes
        badVersion[4] |= 0x20
        #expect(throws: ImageDecodingError.self) { try WebP.LosslessDecoder.readHeader(badVersion[...]) }
        #expect(throws: ImageDecodingError.truncated) { try WebP.LosslessDecoder.readHeader(good.bytes[0..<4]) }
    }
}
