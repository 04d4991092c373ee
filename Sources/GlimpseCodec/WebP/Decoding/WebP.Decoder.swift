extension WebP {
    /// The incremental WebP decoder (RFC 9649 container; VP8L lossless, VP8 lossy with
    /// `ALPH`, animation), following the ``ImageDecoder`` contract. Pixels are straight
    /// (not premultiplied) RGBA8, the same as libwebp's `WebPDecodeRGBA` for a still
    /// image and its `WebPAnimDecoder` for the frames of an animation.
    ///
    /// Every frame of an animation is the full canvas after the frame is drawn, composed
    /// as ``WebP/Compositor`` describes; ``ImageFrame/duration`` is the stored duration in
    /// milliseconds. ``Image/loopCount`` is the `ANIM` loop count (0 for forever), 1 for a
    /// still image. ``Image/metadata`` has the ICC profile (`ICCP`) and the EXIF
    /// orientation (`EXIF`) when the `VP8X` flags announce them.
    ///
    /// Like libwebp, the decoder wants the whole RIFF payload: ``finish()`` throws
    /// ``ImageDecodingError/truncated`` for a file cut anywhere before the end of its
    /// RIFF size, even after the image (``partialImage()`` still has the frames decoded).
    ///
    /// To walk a long animation in bounded memory, use ``WebP/FrameIterator``.
    public struct Decoder: ImageDecoder {
        public static var format: ImageFormat { .webp }

        private let options: DecodingOptions
        private var reader: FrameReader
        private var frames: [ImageFrame] = []
        private var failure: ImageDecodingError?
        private var isComplete = false

        public init(options: DecodingOptions) {
            self.options = options
            reader = FrameReader(options: options)
        }

        public var info: ImageInfo? {
            guard let size = reader.canvasSize else { return nil }
            let animated = reader.isAnimated
            // An animation's frames are known from its chunk headers when the rest of the file
            // came in one piece, else once every frame is decoded.
            let count: Int? = animated ? (reader.countedFrames ?? (isComplete && !options.firstFrameOnly ? frames.count : nil)) : 1
            return ImageInfo(format: .webp, width: size.width, height: size.height, frameCount: count,
                             isAnimated: animated, bitDepth: 8, hasAlpha: reader.hasAlpha, metadata: reader.metadata)
        }

        public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
            if let failure { throw failure }
            if isComplete { return .complete }
            var offset = 0
            do throws(ImageDecodingError) {
                while true {
                    switch try reader.read(bytes, &offset) {
                    case .needMoreData:
                        return .needMoreData
                    case .frame(let frame):
                        frames.append(frame)
                        reader.retainedBytes &+= frame.pixels.bytes.count
                        if options.firstFrameOnly && reader.isAnimated {
                            isComplete = true
                            return .complete
                        }
                    case .end:
                        isComplete = true
                        return .complete
                    }
                }
            } catch {
                failure = error
                throw error
            }
        }

        public func partialImage() -> Image? {
            guard !frames.isEmpty else {
                // A lossy still's rows so far, while its chunk arrives.
                guard let partial = reader.partialStill else { return nil }
                return Image(frames: [partial], loopCount: 1, format: .webp, metadata: reader.metadata)
            }
            return Image(frames: frames, loopCount: reader.animation?.loopCount ?? 1, format: .webp, metadata: reader.metadata)
        }

        public mutating func finish() throws(ImageDecodingError) -> Image {
            if let failure { throw failure }
            guard isComplete, !frames.isEmpty else {
                failure = .truncated
                throw .truncated
            }
            return Image(frames: frames, loopCount: reader.animation?.loopCount ?? 1, format: .webp, metadata: reader.metadata)
        }
    }
}
