extension WebP {
    /// Turns the full canvases of an animation, one at a time, into `ANMF` frames
    /// (RFC 9649 §2.7.1.1), keeping a model of what a decoder shows after each
    /// (libwebp's `WebPAnimDecoder`, the ``Compositor``) and describing every new
    /// canvas relative to that model, not to the previous source canvas:
    ///
    /// - Only the rectangle holding what changed is coded (its origin moved to even
    ///   coordinates, as `ANMF` requires). Lossless frames call a pixel changed when it
    ///   differs at all; lossy ones when it differs from what the decoder shows by more
    ///   than a tolerance set by the quality (libwebp's `QualityToMaxDiff`), unless the
    ///   source pixel itself did not change. The decoder's canvas thus stays within the
    ///   lossy error or the tolerance of the source, and does not drift over many frames.
    /// - Each frame is tried without blending (the rectangle replaces the canvas) and,
    ///   when every changed pixel is opaque and at least 1/16 of the rectangle is
    ///   unchanged, blending, its unchanged pixels transparent so that they cost next to
    ///   nothing; the smaller wins. When the new canvas is
    ///   transparent where the previous frame drew, disposing of that frame to the
    ///   background is tried too (the flag lives in the previous frame's header, so the
    ///   choice costs no re-encoding).
    /// - The first frame holds what differs from transparent black (where a decoder starts).
    /// - A key frame (the whole canvas, not blended: a decoder can start there) is tried
    ///   once ``Encoder/Options/keyframeInterval``'s lower bound of frames has passed since
    ///   the last one and forced at its upper bound, as `gif2webp -kmin/-kmax`.
    /// - Frames are lossless or lossy as ``Encoder/Options/lossless`` says; lossy frames
    ///   with transparency carry an `ALPH` chunk.
    struct AnimationEncoder {
        let width: Int
        let height: Int
        let options: Encoder.Options
        /// The largest channel difference (scaled by alpha) a lossy frame leaves as the
        /// decoder shows it; 0 for lossless frames.
        let tolerance: Int
        /// Frames between key frames: tried from `min`, forced at `max`; nil inserts none.
        let keyframes: (min: Int, max: Int)?
        private(set) var frames: [ContainerWriter.Frame] = []
        private(set) var hasAlpha = false
        /// What a decoder shows after the frames so far.
        private var composed: Compositor
        private var previousSource: [UInt8]?
        private var previousRect: Compositor.Rect?
        private var lastKeyFrameIndex = 0

        init(width: Int, height: Int, options: Encoder.Options) {
            self.width = width
            self.height = height
            self.options = options
            composed = Compositor(width: width, height: height)
            tolerance = options.lossless ? 0 : Self.tolerance(quality: options.quality)
            keyframes = Self.keyframes(options)
        }

        /// libwebp's mapping from quality to the largest difference a lossy frame may
        /// leave: 31 at quality 0, 1 at 100, along the square root of the quality.
        static func tolerance(quality: Int) -> Int {
            let root = (Double(min(max(quality, 0), 100)) / 100).squareRoot()
            return Int(31 * (1 - root) + root + 0.5)
        }

        /// The key-frame distances: the option, or gif2webp's defaults (9…17 lossless,
        /// 3…5 lossy); an upper bound of 0 inserts none, of 1 makes every frame a key frame.
        static func keyframes(_ options: Encoder.Options) -> (min: Int, max: Int)? {
            let range = options.keyframeInterval ?? (options.lossless ? 9...17 : 3...5)
            guard range.upperBound > 0 else { return nil }
            guard range.upperBound > 1 else { return (1, 1) }
            return (min(max(range.lowerBound, 1), range.upperBound), range.upperBound)
        }

        /// One encoded way of drawing the next canvas.
        struct Candidate {
            var placement: Compositor.Placement
            /// The previous frame is disposed of to the background first.
            var disposesPrevious: Bool
            var frame: EncodedRegion

            var size: Int { frame.bitstream.count + (frame.alpha?.count ?? 0) }
        }

        /// Adds the next canvas (RGBA8, `width × height`), shown for `duration` milliseconds.
        mutating func add(_ canvas: [UInt8], duration: Int) throws(Encoder.EncodingError) {
            let full = Compositor.Rect(x: 0, y: 0, width: width, height: height)
            let index = frames.count
            let distance = index - lastKeyFrameIndex
            let forced = index == 0 || keyframes.map { distance >= $0.max } ?? false
            let triesKeyFrame = forced || keyframes.map { distance >= $0.min } ?? false
            var candidates: [Candidate] = []
            if index == 0 {
                // A decoder starts from transparent black: only what differs from it is drawn.
                let rect = ChangeMap(canvas, below: [UInt8](repeating: 0, count: canvas.count), previous: nil,
                                     width: width, height: height, tolerance: tolerance).boundingRect
                let frame = try encode(Self.region(canvas, rect, width: width), rect: rect)
                candidates.append(Candidate(placement: .init(rect: rect, hasAlpha: frame.hasAlpha, blends: false,
                                                             disposeToBackground: false),
                                            disposesPrevious: false, frame: frame))
            } else if triesKeyFrame {
                let frame = try encode(canvas, rect: full)
                candidates.append(Candidate(placement: .init(rect: full, hasAlpha: frame.hasAlpha, blends: false,
                                                             disposeToBackground: false),
                                            disposesPrevious: false, frame: frame))
            }
            if !forced, let previousSource, let previousRect {
                let disposals = Self.clearsWhatWasDrawn(canvas, composed.canvas, previousRect, width: width) ? [false, true] : [false]
                for disposes in disposals {
                    candidates += try subframes(canvas, previousSource: previousSource, disposing: disposes ? previousRect : nil,
                                                skipsFullReplacement: triesKeyFrame)
                }
            }
            guard var best = candidates.first else { throw .invalidImage("no way to code frame \(index)") }
            for candidate in candidates.dropFirst() where candidate.size < best.size { best = candidate }

            if best.disposesPrevious, !frames.isEmpty {
                frames[frames.count - 1].disposesToBackground = true
                composed.setLastFrameDisposesToBackground(true)
            }
            best.placement.disposeToBackground = false
            let placement = best.placement
            best.frame.decoded.withUnsafeBytes { composed.draw($0, placement) }
            if composed.lastFrameWasKeyFrame { lastKeyFrameIndex = index }
            // The canvas has transparency wherever the source has (outside a first frame smaller
            // than the canvas, say): without the VP8X flag libwebp's readers show it opaque black.
            if best.frame.hasAlpha || Encoder.hasAlpha(canvas) { hasAlpha = true }
            let rect = placement.rect
            frames.append(ContainerWriter.Frame(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                                duration: duration, blends: placement.blends, disposesToBackground: false,
                                                bitstream: best.frame.bitstream, isLossy: best.frame.isLossy,
                                                alpha: best.frame.alpha))
            previousSource = canvas
            previousRect = rect
        }

        /// The sub-frame candidates on the canvas as the decoder has it, after disposing of
        /// the previous frame's rectangle `disposed` when given: the changed rectangle
        /// replaced, and blended when that is exact for every changed pixel.
        private func subframes(_ canvas: [UInt8], previousSource: [UInt8], disposing disposed: Compositor.Rect?,
                               skipsFullReplacement: Bool) throws(Encoder.EncodingError) -> [Candidate] {
            var below = composed.canvas
            if let disposed { Self.clear(disposed, in: &below, width: width) }
            let changes = ChangeMap(canvas, below: below, previous: previousSource, disposed: disposed,
                                    width: width, height: height, tolerance: tolerance)
            let rect = changes.boundingRect
            let full = Compositor.Rect(x: 0, y: 0, width: width, height: height)
            // After disposing of the whole canvas, or of a key frame's rectangle, a decoder starts
            // from a transparent canvas and does not blend: the blended candidate is not what it shows.
            let restarts = disposed.map { $0 == full || composed.lastFrameWasKeyFrame } ?? false
            var candidates: [Candidate] = []
            if !(skipsFullReplacement && rect == full && disposed == nil) {
                let frame = try encode(Self.region(canvas, rect, width: width), rect: rect)
                candidates.append(Candidate(placement: .init(rect: rect, hasAlpha: frame.hasAlpha, blends: false,
                                                             disposeToBackground: false),
                                            disposesPrevious: disposed != nil, frame: frame))
            }
            // Blending pays for itself only when much of the rectangle is unchanged: below 1/16
            // (a pan redraws all but a few percent) it is not tried, which halves such frames' time.
            if !restarts, changes.unchangedCount(in: rect) * 16 >= rect.width * rect.height,
               let region = changes.blendedRegion(canvas, rect, disposed: disposed, keepsColorUnderTransparency: !options.lossless) {
                let frame = try encode(region, rect: rect)
                candidates.append(Candidate(placement: .init(rect: rect, hasAlpha: frame.hasAlpha, blends: true,
                                                             disposeToBackground: false),
                                            disposesPrevious: disposed != nil, frame: frame))
            }
            return candidates
        }

        /// Whether `canvas` is transparent somewhere the decoder's canvas `shown` is not,
        /// inside the previous frame's rectangle: only then can disposing of it help.
        static func clearsWhatWasDrawn(_ canvas: [UInt8], _ shown: [UInt8], _ rect: Compositor.Rect, width: Int) -> Bool {
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX {
                    let alpha = (y * width + x) * 4 + 3
                    if canvas[alpha] == 0, shown[alpha] != 0 { return true }
                }
            }
            return false
        }

        /// Sets `rect` of the RGBA8 `canvas` to transparent black.
        static func clear(_ rect: Compositor.Rect, in canvas: inout [UInt8], width: Int) {
            for y in rect.y..<rect.maxY {
                let start = (y * width + rect.x) * 4
                canvas.replaceSubrange(start..<start + rect.width * 4, with: repeatElement(0, count: rect.width * 4))
            }
        }

        /// The pixels of `rect` of the RGBA8 `canvas`, rows packed.
        static func region(_ canvas: [UInt8], _ rect: Compositor.Rect, width: Int) -> [UInt8] {
            var region: [UInt8] = []
            region.reserveCapacity(rect.width * rect.height * 4)
            for y in rect.y..<rect.maxY {
                let start = (y * width + rect.x) * 4
                region.append(contentsOf: canvas[start..<start + rect.width * 4])
            }
            return region
        }
    }
}
