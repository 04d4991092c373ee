extension WebP {
    /// Writes WebP files: lossless (VP8L, RFC 9649 §3–§5) stills and animations.
    ///
    /// Every pixel decodes back exactly, alpha included; RGBA16 input is written
    /// by its high byte. An image of several frames becomes an animation
    /// (`ANMF` frames holding only the rectangle that changed from the frame
    /// before). Lossy (VP8) output is not written yet: asking for it fails with
    /// ``EncodingError/lossyNotSupported``.
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
            /// Lossless (VP8L). `false` asks for lossy VP8, which fails for now with
            /// ``EncodingError/lossyNotSupported``; until it lands the default is lossless.
            public var lossless: Bool
            /// 0 (fastest) … 9 (smallest), as `cwebp -z`; default 6.
            public var effort: Int
            /// Keep the colour of fully transparent pixels (`cwebp -exact`). When
            /// `false` it is zeroed before encoding, which is smaller and invisible.
            public var exact: Bool
            /// Quality of lossy output, 0…100 (unused while only lossless is written).
            public var quality: Int
            public var metadata: Metadata

            public init(lossless: Bool = true, effort: Int = 6, exact: Bool = true, quality: Int = 75,
                        metadata: Metadata = [.iccProfile]) {
                self.lossless = lossless
                self.effort = effort
                self.exact = exact
                self.quality = quality
                self.metadata = metadata
            }
        }

        /// Why an image cannot be written as asked.
        public enum EncodingError: Error, Sendable, Hashable {
            /// Lossy (VP8) encoding is not yet supported; encode losslessly.
            case lossyNotSupported
            /// No pixels, or frames of different sizes.
            case invalidImage(String)
            /// Wider or taller than the 16 384 pixels a VP8L header can state.
            case unsupportedSize(width: Int, height: Int)
            /// Effort outside 0…9 or quality outside 0…100.
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
            guard options.lossless else { throw .lossyNotSupported }
            guard (0...9).contains(options.effort) else { throw .invalidOptions("effort \(options.effort) outside 0...9") }
            guard (0...100).contains(options.quality) else { throw .invalidOptions("quality \(options.quality) outside 0...100") }
            guard width > 0, height > 0 else { throw .invalidImage("empty image") }
            guard width <= LosslessEncoder.maxDimension, height <= LosslessEncoder.maxDimension else {
                throw .unsupportedSize(width: width, height: height)
            }
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
