extension PNG {
    /// The animation control chunk, acTL (APNG specification §4.1).
    struct AnimationControl: Sendable, Hashable {
        var frameCount: Int
        /// 0 means play forever.
        var playCount: Int

        /// `nil` when the values make the animation invalid (0 frames, or counts
        /// beyond 2^31 − 1); decoders then show the default image, as browsers do.
        init?(parsing data: [UInt8]) {
            guard data.count == 8 else { return nil }
            let frames = data.withUnsafeBytes { $0.bigEndianUInt32(at: 0) }
            let plays = data.withUnsafeBytes { $0.bigEndianUInt32(at: 4) }
            guard frames > 0, frames <= UInt32(Int32.max), plays <= UInt32(Int32.max) else { return nil }
            frameCount = Int(frames)
            playCount = Int(plays)
        }
    }

    /// What to do with a frame's region once it has been shown (APNG §4.2 dispose_op).
    enum DisposeOp: UInt8, Sendable, Hashable {
        case none = 0, background = 1, previous = 2
    }

    /// How a frame is drawn onto the canvas (APNG §4.2 blend_op).
    enum BlendOp: UInt8, Sendable, Hashable {
        case source = 0, over = 1
    }

    /// The frame control chunk, fcTL (APNG specification §4.2).
    struct FrameControl: Sendable, Hashable {
        var sequence: Int
        var width, height, x, y: Int
        var delayNumerator, delayDenominator: Int
        var dispose: DisposeOp
        var blend: BlendOp

        /// Parses fcTL and checks that the region lies inside the canvas.
        init(parsing data: [UInt8], canvasWidth: Int, canvasHeight: Int) throws(ImageDecodingError) {
            guard data.count == 26 else { throw .malformed(.png(.frameControlLength(data.count))) }
            let (values, delays, ops) = data.withUnsafeBytes { raw in
                ((0..<5).map { Int(raw.bigEndianUInt32(at: $0 * 4)) },
                 (Int(raw.bigEndianUInt16(at: 20)), Int(raw.bigEndianUInt16(at: 22))), (raw[24], raw[25]))
            }
            sequence = values[0]
            width = values[1]
            height = values[2]
            x = values[3]
            y = values[4]
            delayNumerator = delays.0
            delayDenominator = delays.1
            guard let dispose = DisposeOp(rawValue: ops.0) else { throw .malformed(.png(.disposeOp(ops.0))) }
            guard let blend = BlendOp(rawValue: ops.1) else { throw .malformed(.png(.blendOp(ops.1))) }
            self.dispose = dispose
            self.blend = blend
            // Values are below 2^32, so these sums cannot overflow Int.
            guard width > 0, height > 0, x &+ width <= canvasWidth, y &+ height <= canvasHeight else {
                throw .malformed(.png(.frameOutsideCanvas))
            }
        }

        /// The delay as a duration; a zero denominator means 1/100 s (APNG §4.2).
        var duration: Duration {
            let denominator = delayDenominator == 0 ? 100 : delayDenominator
            return .nanoseconds(Int64(delayNumerator) * 1_000_000_000 / Int64(denominator))
        }
    }
}
