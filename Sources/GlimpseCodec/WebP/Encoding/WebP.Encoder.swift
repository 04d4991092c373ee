extension WebP {
    /// Writes WebP files: lossy (VP8, RFC 6386) or lossless (VP8L, RFC 9649 §3–§5)
    /// stills and animations.
    ///
    /// Lossy is the default, at quality 75, as `cwebp`'s: one VP8 key frame, and
    /// for an image with any pixel not fully opaque an `ALPH` chunk holding the
    /// alpha exactly (lossless-compressed, RFC 9649 §2.7.1.4). Lossless output
    /// decodes back to exactly the input pixels, alpha included. RGBA16 input is
    /// written by its high byte. An image of several frames becomes an animation
    /// (RFC 9649 §2.7.1.1) of lossless or lossy `ANMF` frames holding only the
    /// rectangle that changed, blended and disposed of as is smallest, with key
    /// frames at ``Options/keyframeInterval`` (see ``WebP/AnimationEncoder``).
    public struct Encoder: Sendable {
        /// Which metadata chunks are written (RFC 9649 §2.7.1.5).
        public struct Metadata: OptionSet, Sendable, Hashable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// The ICC profile, as an `ICCP` chunk.
            public static let iccProfile = Metadata(rawValue: 1)
            /// The orientation, as an `EXIF` chunk (a minimal TIFF structure).
            public static let exif = Metadata(rawValue: 2)
            public static let all: Metadata = [.iccProfile, .exif]
        }

        public struct Options: Sendable, Hashable {
            /// Lossless (VP8L) rather than lossy (VP8); default `false`, as `cwebp`.
            public var lossless: Bool
            /// Lossless effort, 0 (fastest) … 9 (smallest), as `cwebp -z`; default 6.
            /// Lossy output uses it for the `ALPH` chunk's compression.
            public var effort: Int
            /// Lossy method, 0 (fastest) … 6 (smallest), as `cwebp -m`; default 4.
            /// Methods 0 and 1 predict luma in 16×16 blocks only; 2, 3 and 4 also try the
            /// 3, 4 and 5 most promising of the ten 4×4 modes of every sub-block
            /// (RFC 6386 §12.3), 5 and 6 all ten.
            public var method: Int
            /// Keep the colour of fully transparent pixels (`cwebp -exact`). When
            /// `false` it is zeroed before encoding, which is smaller and invisible.
            public var exact: Bool
            /// Quality of lossy output, 0 (smallest) … 100 (best), mapped to the VP8
            /// quantiser as `cwebp -q` maps it; default 75.
            public var quality: Int
            public var metadata: Metadata
            /// Animations: the distance in frames between key frames (a frame covering the
            /// canvas that a decoder can start from, to seek), as `gif2webp -kmin/-kmax`: one
            /// is tried (kept when smaller) once the lower bound has passed since the last,
            /// and forced at the upper bound. An upper bound of 0 inserts none, of 1 makes
            /// every frame one. Nil (the default) is gif2webp's: 9…17 lossless, 3…5 lossy.
            public var keyframeInterval: ClosedRange<Int>?
            /// Quality of the alpha of lossy output, 0 … 100 (default: exact), as `cwebp -alpha_q`:
            /// below 100 the alpha values are reduced to fewer levels before they are compressed
            /// (`2 + q / 5` levels up to 70, then `16 + 8 (q − 70)`), 0 and 255 staying exact.
            public var alphaQuality: Int

            public init(lossless: Bool = false, effort: Int = 6, method: Int = 4, exact: Bool = true, quality: Int = 75,
                        metadata: Metadata = [.iccProfile], keyframeInterval: ClosedRange<Int>? = nil,
                        alphaQuality: Int = 100) {
                self.alphaQuality = alphaQuality
                self.lossless = lossless
                self.effort = effort
                self.method = method
                self.exact = exact
                self.quality = quality
                self.metadata = metadata
                self.keyframeInterval = keyframeInterval
            }
        }

        /// Why an image cannot be written as asked.
        public enum EncodingError: Error, Sendable, Hashable {
            /// No pixels, or frames of different sizes.
            case invalidImage(String)
            /// Wider or taller than a VP8L header (16 384) or a VP8 frame header (16 383) can state,
            /// or, lossy, so many macroblocks that their modes outgrow the first partition (RFC 6386 §9.1).
            case unsupportedSize(width: Int, height: Int)
            /// Effort outside 0…9, method outside 0…6, quality or alpha quality outside 0…100, or a
            /// negative key-frame interval.
            case invalidOptions(String)
        }

        public var options: Options

        public init(options: Options = Options()) {
            self.options = options
        }

        /// Encodes `image`: a still for one frame, an animation for several.
        public func encode(_ image: Image) throws(EncodingError) -> [UInt8] {
            guard let first = image.frames.first else { throw .invalidImage("no frames") }
            try check(width: first.pixels.width, height: first.pixels.height)
            let container = container(for: image.metadata)
            if image.frames.count == 1 {
                let pixels = first.pixels.converted(to: .rgba8)
                if !options.lossless { return try encodeLossy(pixels, container: container) }
                let bitstream = LosslessEncoder.encode(rgba: pixels.bytes, width: pixels.width, height: pixels.height,
                                                       effort: options.effort, exact: options.exact)
                return container.still(bitstream, width: pixels.width, height: pixels.height,
                                       hasAlpha: Self.hasAlpha(pixels.bytes))
            }
            return try encodeAnimation(image, container: container)
        }

        /// Encodes `pixels` as a still.
        public func encode(_ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(EncodingError) -> [UInt8] {
            try encode(Image(pixels: pixels, format: .webp, metadata: metadata))
        }

        func check(width: Int, height: Int) throws(EncodingError) {
            guard (0...9).contains(options.effort) else { throw .invalidOptions("effort \(options.effort) outside 0...9") }
            guard (0...6).contains(options.method) else { throw .invalidOptions("method \(options.method) outside 0...6") }
            guard (0...100).contains(options.quality) else { throw .invalidOptions("quality \(options.quality) outside 0...100") }
            guard (0...100).contains(options.alphaQuality) else {
                throw .invalidOptions("alpha quality \(options.alphaQuality) outside 0...100")
            }
            if let interval = options.keyframeInterval, interval.lowerBound < 0 {
                throw .invalidOptions("key-frame interval \(interval) below 0")
            }
            guard width > 0, height > 0 else { throw .invalidImage("empty image") }
            guard width <= LosslessEncoder.maxDimension, height <= LosslessEncoder.maxDimension else {
                throw .unsupportedSize(width: width, height: height)
            }
        }

        /// A lossy still: `VP8 `, after `ALPH` when any pixel is not opaque.
        private func encodeLossy(_ pixels: PixelBuffer, container: ContainerWriter) throws(EncodingError) -> [UInt8] {
            let (width, height) = (pixels.width, pixels.height)
            guard width <= LossyEncoder.maxDimension, height <= LossyEncoder.maxDimension else {
                throw .unsupportedSize(width: width, height: height)
            }
            let settings = LossyEncoder.Settings(quality: options.quality, method: options.method)
            let bitstream: [UInt8]
            do {
                bitstream = try LossyEncoder.encode(rgba: pixels.bytes, width: width, height: height, settings: settings).bitstream
            } catch {
                throw .unsupportedSize(width: width, height: height)
            }
            let alpha = Self.hasAlpha(pixels.bytes)
                ? AlphaEncoder.encode(rgba: pixels.bytes, width: width, height: height, effort: options.effort,
                                      quality: options.alphaQuality).payload : nil
            return container.lossyStill(bitstream, alpha: alpha, width: width, height: height)
        }

        private func container(for metadata: ImageMetadata) -> ContainerWriter {
            var container = ContainerWriter()
            if options.metadata.contains(.iccProfile), let profile = metadata.iccProfile, !profile.isEmpty {
                container.iccProfile = profile
            }
            if options.metadata.contains(.exif), metadata.orientation != .up {
                container.exif = metadata.orientation.exifTIFF
            }
            return container
        }

        static func hasAlpha(_ rgba: [UInt8]) -> Bool {
            var index = 3
            while index < rgba.count {
                if rgba[index] != 255 { return true }
                index += 4
            }
            return false
        }
    }
}
