/// Chooses a decoder for a file: sniffs its format and looks up the decoder
/// registered for it.
///
/// ``standard`` holds Glimpse's own decoders. Users add their own with
/// ``register(_:for:)`` (for a format the sniffer knows, e.g. WebP) or
/// ``register(_:matching:)`` (for a format it does not). A format without a
/// decoder fails with ``ImageDecodingError/unsupportedFormat(_:)``.
///
/// The registry is a value: configure a copy and hand it to whoever decodes.
public struct DecoderRegistry: Sendable {
    /// Recognises a custom format from a file's leading bytes.
    public typealias Matcher = @Sendable (UnsafeRawBufferPointer) -> MatchDecision

    /// A custom matcher's answer for the bytes seen so far.
    public enum MatchDecision: Sendable, Hashable {
        case match
        case noMatch
        /// The bytes so far are a prefix of the format's signature.
        case needMoreData
    }

    private var decodersByFormat: [ImageFormat: any ImageDecoder.Type] = [:]
    private var customDecoders: [(matcher: Matcher, decoder: any ImageDecoder.Type)] = []

    /// A registry with no decoders.
    public init() {}

    /// Registers `decoder` for `formats`, replacing any earlier registration.
    public mutating func register(_ decoder: any ImageDecoder.Type, for formats: ImageFormat...) {
        for format in formats { decodersByFormat[format] = decoder }
    }

    /// Registers `decoder` for files that `matcher` recognises. Custom matchers
    /// are asked, in registration order, before the built-in sniffer.
    public mutating func register(_ decoder: any ImageDecoder.Type, matching matcher: @escaping Matcher) {
        customDecoders.append((matcher, decoder))
    }

    /// Removes the decoder registered for `format`.
    public mutating func unregister(_ format: ImageFormat) {
        decodersByFormat[format] = nil
    }

    /// The decoder registered for `format`, if any.
    public func decoder(for format: ImageFormat) -> (any ImageDecoder.Type)? {
        decodersByFormat[format]
    }

    /// The formats that have a decoder.
    public var decodableFormats: Set<ImageFormat> { Set(decodersByFormat.keys) }

    /// What the registry makes of a file's leading bytes.
    public enum Selection: Sendable {
        /// The format and the decoder to use.
        case decoder(any ImageDecoder.Type, SniffedFormat)
        /// More bytes are needed to tell the format.
        case needMoreData
    }

    /// Selects the decoder for a file starting with `bytes`.
    ///
    /// - Throws: ``ImageDecodingError/unsupportedFormat(_:)`` when the format is known
    ///   to have no decoder here (or is unknown).
    public func select(_ bytes: UnsafeRawBufferPointer, atEnd: Bool = false) throws(ImageDecodingError) -> Selection {
        for custom in customDecoders {
            switch custom.matcher(bytes) {
            case .match: return .decoder(custom.decoder, SniffedFormat(custom.decoder.format))
            case .needMoreData where !atEnd: return .needMoreData
            case .needMoreData, .noMatch: continue
            }
        }
        // A PNG and an APNG go to the same decoder in practice; commit as soon as
        // the signature is seen so that its header info is not held back until
        // the first IDAT.
        if bytes.count >= 8, let png = decodersByFormat[.png], let apng = decodersByFormat[.apng], png == apng,
           FormatSniffer.matchPNGSignature(bytes) {
            return .decoder(png, SniffedFormat(.png))
        }
        switch FormatSniffer.sniff(buffer: bytes, atEnd: atEnd) {
        case .needMoreData:
            return .needMoreData
        case .detected(let sniffed):
            guard let decoder = decodersByFormat[sniffed.format] else { throw .unsupportedFormat(sniffed.format) }
            return .decoder(decoder, sniffed)
        }
    }

    /// One-shot decode of a complete file held in memory.
    public func decode(_ bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) throws(ImageDecodingError) -> Image {
        var decoder = AutoDecoder(registry: self, options: options)
        _ = try decoder.append(bytes)
        return try decoder.finish()
    }
}

extension FormatSniffer {
    static func matchPNGSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        SniffInput(bytes: bytes).compare([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .equal
    }
}

/// Metatypes compare by identity.
private func == (lhs: any ImageDecoder.Type, rhs: any ImageDecoder.Type) -> Bool {
    ObjectIdentifier(lhs) == ObjectIdentifier(rhs)
}
