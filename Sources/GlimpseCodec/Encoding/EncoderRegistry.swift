/// Chooses an encoder by output format.
///
/// ``standard`` holds Glimpse's own encoders; add or replace one with
/// ``register(_:for:)``. Like ``DecoderRegistry`` it is a value: configure a
/// copy and hand it to whoever encodes.
public struct EncoderRegistry: Sendable {
    private var encodersByFormat: [ImageFormat: any ImageEncoder.Type] = [:]

    /// A registry with no encoders.
    public init() {}

    /// Registers `encoder` for `formats`, replacing any earlier registration.
    public mutating func register(_ encoder: any ImageEncoder.Type, for formats: ImageFormat...) {
        for format in formats { encodersByFormat[format] = encoder }
    }

    /// Removes the encoder registered for `format`.
    public mutating func unregister(_ format: ImageFormat) {
        encodersByFormat[format] = nil
    }

    /// The encoder registered for `format`, if any.
    public func encoder(for format: ImageFormat) -> (any ImageEncoder.Type)? {
        encodersByFormat[format]
    }

    /// The formats that have an encoder.
    public var encodableFormats: Set<ImageFormat> { Set(encodersByFormat.keys) }

    /// Encodes `image` as `format` with the registered encoder, configured by
    /// ``ImageEncoder/options(from:)``, after converting a copy of its pixels when
    /// ``EncodingOptions/colorPolicy`` converts (an image its policy cannot convert is
    /// written as it is, with its own profile).
    ///
    /// - Throws: ``ImageEncodingError/unsupportedFormat(_:)`` when no encoder is
    ///   registered for `format`, or the encoder's failure.
    public func encode(_ image: Image, as format: ImageFormat, options: EncodingOptions = EncodingOptions())
        throws(ImageEncodingError) -> [UInt8] {
        guard let encoder = encodersByFormat[format] else { throw .unsupportedFormat(format) }
        guard options.colorPolicy.converts else { return try Self.encode(image, with: encoder, options: options) }
        var converted = image
        options.colorPolicy.apply(to: &converted)
        return try Self.encode(converted, with: encoder, options: options)
    }

    private static func encode<Encoder: ImageEncoder>(_ image: Image, with _: Encoder.Type, options: EncodingOptions)
        throws(ImageEncodingError) -> [UInt8] {
        do throws(Encoder.Failure) {
            return try Encoder(options: Encoder.options(from: options)).encode(image)
        } catch {
            throw error.imageEncodingError
        }
    }
}

extension Image {
    /// This image encoded as `format` (see ``EncoderRegistry/encode(_:as:options:)``).
    public func encoded(as format: ImageFormat, options: EncodingOptions = EncodingOptions(),
                        registry: EncoderRegistry = .standard) throws(ImageEncodingError) -> [UInt8] {
        try registry.encode(self, as: format, options: options)
    }
}
