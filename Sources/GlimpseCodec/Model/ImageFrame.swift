/// One frame of an image: the full canvas as it is displayed at this point of
/// the animation (decoders compose partial frames onto the canvas), and how
/// long it stays on screen.
public struct ImageFrame: Sendable, Hashable {
    /// The composed canvas.
    public var pixels: PixelBuffer
    /// How long the frame is shown, as stored in the file (GIF centiseconds ×
    /// 10 ms, APNG delay_num / delay_den). Zero for still images.
    public var duration: Duration
    /// `false` when the file ended or its data ran out before the frame was
    /// complete; the missing part keeps what the canvas held before.
    public var isComplete: Bool

    public init(pixels: PixelBuffer, duration: Duration = .zero, isComplete: Bool = true) {
        self.pixels = pixels
        self.duration = duration
        self.isComplete = isComplete
    }
}
