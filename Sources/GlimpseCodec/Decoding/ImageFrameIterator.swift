/// Walks an animation one composed frame at a time, from a file in memory or
/// from bytes pushed as they arrive, holding about one frame's memory whatever
/// the animation's length (``GIF/FrameIterator``, ``WebP/FrameIterator``).
///
/// Code that handles every animated format alike (a benchmark, a transcoder,
/// a frame sampler) is written once against this protocol:
///
/// ```swift
/// func countFrames<Frames: ImageFrameIterator>(_: Frames.Type, _ file: [UInt8]) throws -> Int {
///     var frames = Frames(file, options: DecodingOptions())
///     var count = 0
///     while try frames.next() != nil { count += 1 }
///     return count
/// }
/// ```
public protocol ImageFrameIterator: Sendable {
    /// An iterator over the frames of `bytes`, a complete file.
    init(_ bytes: some Collection<UInt8>, options: DecodingOptions)

    /// An iterator fed with ``append(_:)`` as the bytes arrive.
    init(options: DecodingOptions)

    /// Adds the next bytes of the file (push mode).
    mutating func append(_ bytes: some Collection<UInt8>)

    /// Says that no more bytes will come (push mode).
    mutating func endOfInput()

    /// The next composed frame (the whole canvas), `nil` when more input is
    /// needed in push mode or after the last frame; throws when the file is
    /// damaged (or, after ``endOfInput()``, cut short).
    mutating func next() throws(ImageDecodingError) -> ImageFrame?

    /// The canvas size, once the header has been read.
    var canvasSize: (width: Int, height: Int)? { get }

    /// How many times the animation plays: 0 for forever.
    var loopCount: Int { get }
}

extension GIF.FrameIterator: ImageFrameIterator {
    /// The logical screen's size (GIF89a §18), once read.
    public var canvasSize: (width: Int, height: Int)? { screen.map { ($0.width, $0.height) } }
}

extension WebP.FrameIterator: ImageFrameIterator {}
