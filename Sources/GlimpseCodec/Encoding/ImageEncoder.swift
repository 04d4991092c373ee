/// The contract every encoder in Glimpse implements: an ``Image`` and typed
/// options in, the bytes of one file out.
///
/// ## What an encoder promises
/// - It is a value built from its own options type (``Options``), e.g.
///   ``JPEG/EncodingOptions`` or ``PNG/Encoder/Options``; there are no
///   string-keyed settings. ``options(from:)`` derives those options from the
///   format-independent ``EncodingOptions`` so that ``EncoderRegistry`` can drive
///   any encoder from one description.
/// - ``encode(_:)`` is pure: no I/O, no global state; the same image and
///   options always give the same bytes.
/// - Errors are typed (``Failure``) and say why the image cannot be written as
///   asked (no pixels, a size the format cannot store, options out of range).
///   Every failure converts to the format-independent ``ImageEncodingError``.
/// - No image can make an encoder crash; still formats write the first frame.
public protocol ImageEncoder: Sendable {
    /// The encoder's own settings.
    associatedtype Options: Sendable

    /// What ``encode(_:)`` throws.
    associatedtype Failure: ImageEncodingFailure

    /// The format this encoder writes.
    static var format: ImageFormat { get }

    /// The encoder's settings that the format-independent `options` ask for:
    /// the per-format override when there is one, otherwise its quality and
    /// metadata policy applied to the format's defaults.
    static func options(from options: EncodingOptions) -> Options

    /// An encoder with these settings.
    init(options: Options)

    /// Encodes `image` (its first frame for still formats).
    func encode(_ image: Image) throws(Failure) -> [UInt8]
}

/// An encoder's error that can be reported in the format-independent form.
public protocol ImageEncodingFailure: Error {
    /// This failure as an ``ImageEncodingError``.
    var imageEncodingError: ImageEncodingError { get }
}
