extension JPEG {
    /// Writes baseline (SOF0) and progressive (SOF2) Huffman JPEG files whose
    /// bytes equal libjpeg-turbo's (`cjpeg`) for the same 8-bit pixels and
    /// settings: quality scaling of the Annex K tables, the same colour
    /// conversion, downsampling, integer DCT and quantisation, the same
    /// optimal Huffman tables and progressive scans, the same markers.
    ///
    /// RGBA16 pixels are encoded by their high byte. JPEG has no alpha: it is
    /// flattened or ignored as ``EncodingOptions/alpha`` says. For images
    /// produced row by row, use ``RowSink`` directly.
    public struct Encoder: ImageEncoder {
        public static var format: ImageFormat { .jpeg }

        public var options: EncodingOptions

        public init(options: EncodingOptions = EncodingOptions()) {
            self.options = options
        }

        /// The per-format override, or cjpeg's defaults at the requested
        /// quality, with the metadata the policy keeps.
        public static func options(from options: GlimpseCodec.EncodingOptions) -> EncodingOptions {
            if let jpeg = options.jpeg { return jpeg }
            let metadata: EncodingOptions.Metadata
            switch options.metadata {
            case .none: metadata = []
            case .iccProfile: metadata = [.iccProfile]
            case .all: metadata = .all
            }
            return EncodingOptions(quality: options.quality, metadata: metadata)
        }

        /// Encodes the first frame of `image` with its metadata.
        public func encode(_ image: Image) throws(ImageEncodingError) -> [UInt8] {
            guard let frame = image.frames.first else { throw .invalidImage("no frames") }
            return try encode(frame.pixels, metadata: image.metadata)
        }

        /// Encodes `pixels`.
        public func encode(_ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(ImageEncodingError) -> [UInt8] {
            var sink = try RowSink(width: pixels.width, height: pixels.height, pixelFormat: pixels.format,
                                   options: options, metadata: metadata)
            try sink.append(pixels)
            return try sink.finish()
        }
    }
}
