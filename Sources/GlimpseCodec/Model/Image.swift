/// A decoded image: one or more frames of the same size, with what the
/// decoder learnt about it.
public struct Image: Sendable, Hashable {
    /// The frames in display order; never empty for a decoded image.
    public var frames: [ImageFrame]
    /// How many times the animation plays; 0 means forever. 1 for still images.
    public var loopCount: Int
    /// The format the image was decoded from.
    public var format: ImageFormat
    /// Orientation, colour profile, density…
    public var metadata: ImageMetadata
    /// The damage a lenient decoder recovered from, in the order met; empty for
    /// a clean file and always empty in ``DecodingOptions/Mode/strict`` mode.
    public var warnings: [DecodingWarning]

    public init(frames: [ImageFrame], loopCount: Int = 1, format: ImageFormat, metadata: ImageMetadata = ImageMetadata(),
                warnings: [DecodingWarning] = []) {
        self.frames = frames
        self.loopCount = loopCount
        self.format = format
        self.metadata = metadata
        self.warnings = warnings
    }

    /// A still image of one frame.
    public init(pixels: PixelBuffer, format: ImageFormat, metadata: ImageMetadata = ImageMetadata(),
                warnings: [DecodingWarning] = []) {
        self.init(frames: [ImageFrame(pixels: pixels)], loopCount: 1, format: format, metadata: metadata, warnings: warnings)
    }

    /// The first frame's pixels (the still image, or the animation's first canvas).
    public var pixels: PixelBuffer { frames.first?.pixels ?? PixelBuffer(width: 0, height: 0) }
    /// Canvas width in pixels.
    public var width: Int { frames.first?.pixels.width ?? 0 }
    /// Canvas height in pixels.
    public var height: Int { frames.first?.pixels.height ?? 0 }
    /// Whether there is more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// Bytes held by all frames' pixels; what a memory cache charges for it.
    public var byteCount: Int { frames.reduce(0) { $0 + $1.pixels.bytes.count } }
}
