extension WebP {
    /// Composes the frames of an animation onto the canvas exactly as libwebp's
    /// `WebPAnimDecoder` (`src/demux/anim_decode.c`) does, which is what Chrome and
    /// Pillow show (RFC 9649 §2.7.1.1 leaves the details to the decoder):
    ///
    /// - The canvas starts transparent black; the `ANIM` background colour is not used.
    /// - A *key frame* starts from a transparent canvas: the first frame; a frame that
    ///   covers the whole canvas and either has no alpha or does not blend; a frame after
    ///   one disposed to background that covered the canvas or was itself a key frame.
    /// - Otherwise the frame starts from the previous canvas after disposal (its rectangle
    ///   cleared to transparent black when it was disposed to background).
    /// - A blending frame's non-opaque pixels are blended over what lies below with
    ///   libwebp's integer "over" formula for straight alpha; pixels inside the rectangle
    ///   just disposed to background are copied as decoded, not blended.
    ///
    /// It keeps one canvas: disposal is applied to it just before the next frame is drawn,
    /// so the canvas handed out for a frame is never changed while the caller holds it
    /// (copy-on-write copies it if the caller keeps it).
    struct Compositor: Sendable {
        struct Rect: Sendable, Hashable {
            var x: Int, y: Int, width: Int, height: Int
            var maxX: Int { x &+ width }
            var maxY: Int { y &+ height }
        }

        /// How a frame is drawn.
        struct Placement: Sendable, Hashable {
            var rect: Rect
            /// The frame's bitstream may hold alpha (an `ALPH` chunk, or the `VP8L` alpha hint).
            var hasAlpha: Bool
            var blends: Bool
            var disposeToBackground: Bool
        }

        let width: Int
        let height: Int
        /// RGBA8 rows, tightly packed.
        private(set) var canvas: [UInt8]
        private var previous: Placement?
        private var previousWasKeyFrame = false
        /// The rectangle the previous frame disposed to background, for the frame being drawn.
        private var disposed: Rect?

        /// Allocates the canvas; the caller checked the budget.
        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            canvas = [UInt8](repeating: 0, count: width &* height &* 4)
        }

        private func isFullCanvas(_ rect: Rect) -> Bool { rect.width == width && rect.height == height }

        /// Draws one frame (`pixels`: straight RGBA8 rows of `placement.rect.width * 4` bytes);
        /// the rectangle lies inside the canvas (the caller checked it).
        mutating func draw(_ pixels: UnsafeRawBufferPointer, _ placement: Placement) {
            let blends = begin(placement)
            draw(pixels, placement, blending: blends)
        }

        /// Whether the frame drawn last is a key frame (what a decoder can start from).
        var lastFrameWasKeyFrame: Bool { previousWasKeyFrame }

        /// Changes how the frame drawn last is disposed of. The encoder settles it only once
        /// it has seen the next frame; the disposal is applied when that frame begins.
        mutating func setLastFrameDisposesToBackground(_ disposes: Bool) {
            previous?.disposeToBackground = disposes
        }

        /// Starts a frame: decides whether it is a key frame, clears the canvas for one or
        /// applies the previous frame's disposal. Returns whether the frame's pixels must
        /// be blended over the canvas; when not, they may be written straight into its
        /// rectangle (``withRectangle(_:_:)``) instead of through ``draw(_:_:blending:)``.
        mutating func begin(_ placement: Placement) -> Bool {
            let rect = placement.rect
            let isKeyFrame: Bool
            if let previous {
                if (!placement.hasAlpha || !placement.blends) && isFullCanvas(rect) {
                    isKeyFrame = true
                } else {
                    isKeyFrame = previous.disposeToBackground && (isFullCanvas(previous.rect) || previousWasKeyFrame)
                }
            } else {
                isKeyFrame = true
            }
            let disposed = previous.flatMap { $0.disposeToBackground ? $0.rect : nil }
            self.disposed = disposed
            let canvasWidth = width, coversCanvas = isFullCanvas(rect)
            canvas.withUnsafeMutableBytes { canvasBytes in
                guard let base = canvasBytes.baseAddress else { return }
                if isKeyFrame {
                    // A key frame covering the canvas overwrites every pixel (it is not blended).
                    if !coversCanvas { base.initializeMemory(as: UInt8.self, repeating: 0, count: canvasBytes.count) }
                } else if let disposed {
                    // The canvas becomes libwebp's "previous canvas, disposed".
                    for y in disposed.y..<disposed.maxY {
                        (base + (y &* canvasWidth &+ disposed.x) &* 4).initializeMemory(as: UInt8.self, repeating: 0, count: disposed.width &* 4)
                    }
                }
            }
            previous = placement
            previousWasKeyFrame = isKeyFrame
            return !isKeyFrame && placement.blends
        }

        /// Calls `body` with the canvas, the byte offset of the rectangle's first pixel and
        /// the canvas row pitch, for a frame decoded straight into it.
        mutating func withRectangle<R>(_ rect: Rect, _ body: (UnsafeMutableRawBufferPointer, Int, Int) throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
            let origin = (rect.y &* width &+ rect.x) &* 4, pitch = width &* 4
            let result: Result<R, ImageDecodingError> = canvas.withUnsafeMutableBytes { raw in
                do throws(ImageDecodingError) { return .success(try body(raw, origin, pitch)) } catch { return .failure(error) }
            }
            return try result.get()
        }

        /// Draws the pixels of the frame started by ``begin(_:)``: copied, or blended over the
        /// canvas when `blending` (what `begin` returned).
        mutating func draw(_ pixels: UnsafeRawBufferPointer, _ placement: Placement, blending blends: Bool) {
            let rect = placement.rect
            let rowBytes = rect.width &* 4
            guard pixels.count >= rowBytes &* rect.height, rect.x >= 0, rect.y >= 0,
                  rect.maxX <= width, rect.maxY <= height else { return }
            let disposed = self.disposed
            let canvasWidth = width
            canvas.withUnsafeMutableBytes { canvasBytes in
                guard let base = canvasBytes.baseAddress, let source = pixels.baseAddress else { return }
                for row in 0..<rect.height {
                    let y = rect.y &+ row
                    // Both spans lie inside their buffers: the rectangle is inside the canvas and
                    // `pixels` holds `rect.height` rows of `rowBytes`.
                    let destination = base + (y &* canvasWidth &+ rect.x) &* 4
                    let sourceRow = source + row &* rowBytes
                    guard blends else {
                        destination.copyMemory(from: sourceRow, byteCount: rowBytes)
                        continue
                    }
                    if let disposed, y >= disposed.y, y < disposed.maxY, rect.x < disposed.maxX, rect.maxX > disposed.x {
                        // Inside the disposed rectangle the decoded pixels stand as they are;
                        // only the parts of the row left and right of it are blended.
                        let middleStart = max(rect.x, disposed.x), middleEnd = min(rect.maxX, disposed.maxX)
                        let skip = (middleStart &- rect.x) &* 4
                        (destination + skip).copyMemory(from: sourceRow + skip, byteCount: (middleEnd &- middleStart) &* 4)
                        if rect.x < disposed.x {
                            Self.blend(sourceRow, into: destination, count: disposed.x &- rect.x)
                        }
                        if rect.maxX > disposed.maxX {
                            let right = (disposed.maxX &- rect.x) &* 4
                            Self.blend(sourceRow + right, into: destination + right, count: rect.maxX &- disposed.maxX)
                        }
                    } else {
                        Self.blend(sourceRow, into: destination, count: rect.width)
                    }
                }
            }
        }

        /// `count` pixels of `source` over `destination` (both straight RGBA8); opaque source
        /// pixels replace, fully transparent ones leave the destination.
        private static func blend(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int) {
            // Four pixels a step while they are all opaque or all transparent (most of an
            // animation's pixels): one test of their four alphas, a 16-byte copy or nothing.
            let alphas: UInt64 = 0xff00_0000_ff00_0000
            var i = 0
            while i &+ 4 <= count {
                let offset = i &* 4
                // Pixels i … i + 3 are inside both spans (the loop bound).
                let first = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                let second = source.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
                if first & second & alphas == alphas {
                    destination.storeBytes(of: first, toByteOffset: offset, as: UInt64.self)
                    destination.storeBytes(of: second, toByteOffset: offset &+ 8, as: UInt64.self)
                } else if (first | second) & alphas != 0 {
                    for k in i..<(i &+ 4) { blendPixel(source, into: destination, at: k &* 4) }
                }
                i &+= 4
            }
            while i < count {
                blendPixel(source, into: destination, at: i &* 4)
                i &+= 1
            }
        }

        /// The pixel at byte `offset` of `source` over the one of `destination`.
        @inline(__always)
        private static func blendPixel(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, at offset: Int) {
            let sourceAlpha = source.load(fromByteOffset: offset &+ 3, as: UInt8.self)
            if sourceAlpha == 255 {
                (destination + offset).copyMemory(from: source + offset, byteCount: 4)
                return
            }
            if sourceAlpha == 0 { return }
            let src = UInt32(sourceAlpha)
            let dst = UInt32(destination.load(fromByteOffset: offset &+ 3, as: UInt8.self))
            // libwebp's integer approximation of dst_a * (255 - src_a) / 255.
            let dstFactor = (dst &* (256 &- src)) >> 8
            let blendAlpha = src &+ dstFactor  // < 256
            let scale = (1 << 24) / blendAlpha
            for channel in 0..<3 {
                let s = UInt32(source.load(fromByteOffset: offset &+ channel, as: UInt8.self))
                let d = UInt32(destination.load(fromByteOffset: offset &+ channel, as: UInt8.self))
                // (s·src + d·dstFactor) ≤ 255·blendAlpha, so the product stays below 2^32.
                let value = ((s &* src &+ d &* dstFactor) &* scale) >> 24
                destination.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset &+ channel, as: UInt8.self)
            }
            destination.storeBytes(of: UInt8(truncatingIfNeeded: blendAlpha), toByteOffset: offset &+ 3, as: UInt8.self)
        }
    }
}
