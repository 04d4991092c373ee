import GlimpseCodec
import TestSupport
import Testing

/// A minimal decoder for the registry tests: PAM (`P7`) files, incremental in
/// the simplest way (buffer everything, decode at the end), with an error that
/// must stay permanent.
struct TestPAMDecoder: ImageDecoder {
    static let format = ImageFormat.unknown
    var buffered: [UInt8] = []
    var failure: ImageDecodingError?
    var options: DecodingOptions

    init(options: DecodingOptions) { self.options = options }

    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
        if let failure { throw failure }
        buffered.append(contentsOf: bytes)
        if buffered.count >= 2, buffered[0] != UInt8(ascii: "P") || buffered[1] != UInt8(ascii: "7") {
            failure = .malformed(.other("signature"))
            throw .malformed(.other("signature"))
        }
        return .needMoreData
    }

    var info: ImageInfo? { nil }
    func partialImage() -> Image? { nil }

    mutating func finish() throws(ImageDecodingError) -> Image {
        if let failure { throw failure }
        do throws(ImageDecodingError) {
            return Image(pixels: try PAM.decode(buffered), format: .unknown)
        } catch {
            failure = error
            throw error
        }
    }
}

@Suite("Decoder registry and contract")
struct DecoderRegistryTests {
    let sample: PixelBuffer = {
        var pixels = PixelBuffer(width: 3, height: 2)
        for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(i * 7 % 256) }
        return pixels
    }()

    var registry: DecoderRegistry {
        var registry = DecoderRegistry()
        registry.register(TestPAMDecoder.self) { bytes in
            let signature: [UInt8] = [UInt8(ascii: "P"), UInt8(ascii: "7")]
            for (index, expected) in signature.enumerated() {
                guard index < bytes.count else { return .needMoreData }
                if bytes[index] != expected { return .noMatch }
            }
            return .match
        }
        return registry
    }

    @Test func customDecoderIsChosenByItsMatcher() throws {
        let image = try registry.decode(PAM.encode(sample))
        #expect(image.pixels == sample)
    }

    @Test(arguments: Chunking.standard)
    func autoDecoderGivesTheSameImageForAnyChunking(_ chunking: Chunking) throws {
        var decoder = AutoDecoder(registry: registry)
        for chunk in chunking.split(PAM.encode(sample)) { _ = try decoder.append(chunk) }
        #expect(try decoder.finish().pixels == sample)
    }

    /// Contiguous first bytes go to the decoder where they lie; others are
    /// buffered first. Both paths give the same image.
    @Test func autoDecoderTakesContiguousAndOtherCollections() throws {
        let file = PAM.encode(sample)
        #expect(try registry.decode(file).pixels == sample)
        #expect(try registry.decode(file[...]).pixels == sample)
        #expect(try registry.decode(file.lazy.map { $0 }).pixels == sample)
        var split = AutoDecoder(registry: registry)
        _ = try split.append(file.prefix(file.count / 2))
        _ = try split.append(file.dropFirst(file.count / 2).lazy.map { $0 })
        #expect(try split.finish().pixels == sample)
    }

    @Test func knownFormatWithoutDecoderIsUnsupported() {
        #expect(throws: ImageDecodingError.unsupportedFormat(.webp)) {
            try DecoderRegistry().decode(Array("RIFF\0\0\0\0WEBPVP8L".utf8) + [0, 0, 0, 0])
        }
    }

    @Test func unknownBytesAreUnsupportedFormatUnknown() {
        #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) {
            try DecoderRegistry().decode(Array("definitely not an image".utf8))
        }
    }

    @Test func emptyInputIsTruncated() {
        #expect(throws: ImageDecodingError.truncated) { try DecoderRegistry().decode([UInt8]()) }
    }

    @Test func errorsArePermanent() {
        var decoder = AutoDecoder(registry: registry)
        #expect(throws: ImageDecodingError.malformed(.pam(.header))) {
            _ = try decoder.append(Array("P7\nWIDTH x\nENDHDR\n".utf8))
            _ = try decoder.finish()
        }
        #expect(throws: ImageDecodingError.malformed(.pam(.header))) { _ = try decoder.append([1, 2, 3]) }
        #expect(throws: ImageDecodingError.malformed(.pam(.header))) { _ = try decoder.finish() }
    }

    @Test func registrationCanBeReplacedAndRemoved() {
        var registry = DecoderRegistry()
        registry.register(TestPAMDecoder.self, for: .webp, .bmp)
        #expect(registry.decodableFormats == [.webp, .bmp])
        registry.unregister(.webp)
        #expect(registry.decoder(for: .webp) == nil)
        #expect(registry.decoder(for: .bmp) != nil)
    }
}

@Suite("Decoding limits")
struct DecodingLimitsTests {
    @Test func defaultsMatchTheContract() {
        let limits = DecodingLimits()
        #expect(limits.maxWidth == 32_768 && limits.maxHeight == 32_768)
        #expect(limits.maxPixelsPerFrame == 128 * 1024 * 1024)
        #expect(limits.maxFrames == 10_000)
        #expect(limits.maxTotalBytes == 1 << 30)
    }

    @Test func dimensionsAreChecked() throws {
        let limits = DecodingLimits()
        try limits.checkDimensions(width: 32_768, height: 4096)
        #expect(throws: ImageDecodingError.limitExceeded(.width)) { try limits.checkDimensions(width: 32_769, height: 1) }
        #expect(throws: ImageDecodingError.limitExceeded(.height)) { try limits.checkDimensions(width: 1, height: 225_000) }
        #expect(throws: ImageDecodingError.limitExceeded(.pixelsPerFrame)) { try limits.checkDimensions(width: 32_768, height: 32_768) }
    }

    @Test func byteBudgetNeverOverflows() throws {
        let limits = DecodingLimits(maxTotalBytes: 1000)
        #expect(try limits.checkBytes(10, of: 100) == 1000)
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) { try limits.checkBytes(10, of: 100, alreadyUsed: 1) }
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) { try limits.checkBytes(Int.max, of: 2) }
        #expect(throws: ImageDecodingError.limitExceeded(.totalBytes)) { try limits.checkBytes(-1) }
    }
}
