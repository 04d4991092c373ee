/// The contract every decoder in Glimpse implements: a push-style,
/// incremental, sans-I/O state machine.
///
/// ## Call sequence
/// 1. Create the decoder with ``init(options:)``. It allocates nothing large.
/// 2. Call ``append(_:)`` with the bytes as they arrive, in chunks of any size
///    (one byte at a time included). Each call decodes as far as the data
///    allows and returns ``DecodingStatus/needMoreData`` (a normal state,
///    never an error) or ``DecodingStatus/complete`` (all image data has been
///    seen; later bytes are ignored).
/// 3. Read ``info`` at any point: it becomes non-`nil` as soon as the header is
///    parsed, before any pixel memory is allocated, and the limits have been
///    checked against it by then.
/// 4. Call ``partialImage()`` at any point for what has been decoded so far
///    (rows of a sequential image, the latest pass of an interlaced or
///    progressive one, the frames completed so far). `nil` until there is
///    something to show.
/// 5. Call ``finish()`` when the input has ended. It returns the full image,
///    or throws ``ImageDecodingError/truncated`` when data is missing.
///
/// ## Guarantees
/// - The output is identical whatever the chunking.
/// - Errors are typed (``ImageDecodingError``) and permanent: after a decoder has
///   thrown, every later `append` and `finish` throws the same error.
/// - ``DecodingLimits`` are checked before allocating.
/// - No input can make a decoder crash, hang or allocate without bound.
///
/// Decoders are value types; copying one forks its state.
public protocol ImageDecoder: Sendable {
    /// The format this decoder reads (for decoders of several, the one detected).
    static var format: ImageFormat { get }

    /// A decoder waiting for its first byte.
    init(options: DecodingOptions)

    /// Feeds the next bytes of the image.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus

    /// Header information; `nil` until the header has been parsed.
    var info: ImageInfo? { get }

    /// What has been decoded so far; `nil` before any pixel is known.
    func partialImage() -> Image?

    /// Ends the input and returns the complete image.
    mutating func finish() throws(ImageDecodingError) -> Image
}

/// What ``ImageDecoder/append(_:)`` reports.
public enum DecodingStatus: Sendable, Hashable {
    /// The decoder consumed everything and waits for more bytes.
    case needMoreData
    /// The image is complete; ``ImageDecoder/finish()`` will succeed and further
    /// bytes are ignored.
    case complete
}

extension ImageDecoder {
    /// Feeds bytes from any contiguous collection.
    @inlinable
    public mutating func append(_ bytes: some Collection<UInt8>) throws(ImageDecodingError) -> DecodingStatus {
        let result: Result<DecodingStatus, ImageDecodingError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(ImageDecodingError) {
                return .success(try append(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        let fallback: Result<DecodingStatus, ImageDecodingError> = copy.withUnsafeBytes { raw in
            do throws(ImageDecodingError) { return .success(try append(raw)) } catch { return .failure(error) }
        }
        return try fallback.get()
    }

    /// One-shot convenience: decodes a complete file held in memory.
    public static func decode(_ bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()) throws(ImageDecodingError) -> Image {
        var decoder = Self(options: options)
        _ = try decoder.append(bytes)
        return try decoder.finish()
    }
}
