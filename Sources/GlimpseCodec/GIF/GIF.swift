/// The Graphics Interchange Format, versions 87a and 89a
/// (CompuServe, "GRAPHICS INTERCHANGE FORMAT Version 89a", 1990).
///
/// - ``GIF/Decoder``: the incremental ``ImageDecoder`` (every frame composed onto the canvas).
/// - ``GIF/FrameIterator``: one composed frame at a time, in bounded memory.
/// - ``GIF/Encoder``: frames in, GIF bytes out.
///
/// See `README.md` in this folder for a walk through a small file and for the
/// places where Glimpse deliberately differs from other decoders.
public enum GIF {
    /// What happens to a frame's rectangle before the next frame is drawn
    /// (GIF89a §23.c.iv, "Disposal Method").
    public enum Disposal: UInt8, Sendable, Hashable, CaseIterable {
        /// 0: no disposal specified; treated like ``none``.
        case unspecified = 0
        /// 1: leave the frame in place.
        case none = 1
        /// 2: the frame's rectangle becomes transparent, as browsers do
        /// (the specification says "restore to background colour").
        case background = 2
        /// 3: the rectangle gets back what it held before the frame was drawn.
        case previous = 3

        /// Values 4–7 are reserved by the specification; they act like ``unspecified``.
        init(field: UInt8) {
            self = Disposal(rawValue: field) ?? .unspecified
        }
    }

    /// The delay a browser actually shows a frame for: stored delays of 10 ms
    /// or less (0 or 1 centisecond) become 100 ms, the rule Chrome, Firefox and
    /// Safari apply so that zero-delay animations do not spin.
    ///
    /// ``ImageFrame/duration`` keeps the delay as stored (GIF89a §23.c.vi,
    /// centiseconds × 10 ms); apply this when playing an animation.
    public static func displayDelay(_ stored: Duration) -> Duration {
        stored <= .milliseconds(10) ? .milliseconds(100) : stored
    }
}
