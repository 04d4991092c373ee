extension PNG {
    /// A PNG decoder that hands the rows of the image to the caller as they
    /// are decoded instead of keeping the image: memory is one band of rows
    /// (about 256 KB) plus the inflate window, whatever the image's size. Made
    /// for work that consumes rows in order, such as a thumbnail
    /// (``ImageTransformers/Resize/RowStream``) or a row-by-row encoder.
    ///
    /// Pixels, checks and damage handling are those of ``Decoder`` (the rows
    /// are the rows it would output, RGBA8, or RGBA16 when
    /// ``DecodingOptions/sampleDepth`` preserves 16-bit sources). An Adam7
    /// image (whose passes fill the image in an order of their own) or an APNG
    /// (whose frames are composed on the canvas) is decoded whole instead, and
    /// ``finish()`` returns it.
    public struct RowDecoder: Sendable {
        /// Consecutive decoded rows, valid only during the call that receives them.
        public struct Rows {
            /// `count` rows of `bytesPerRow` bytes, one after another.
            public let bytes: UnsafeRawBufferPointer
            /// The image row of the first one.
            public let firstRow: Int
            public let count: Int
            public let width: Int
            /// The image's height.
            public let height: Int
            public let format: PixelFormat
            public var bytesPerRow: Int { width &* format.bytesPerPixel }
        }

        /// What ``finish()`` returns.
        public enum Outcome: Sendable {
            /// The rows went to the caller; `rowsDecoded` of `height` arrived
            /// (fewer only for a lenient decode of damaged data: the rest is
            /// transparent black, as ``Decoder`` shows it).
            case streamed(rowsDecoded: Int, metadata: ImageMetadata, warnings: [DecodingWarning])
            /// The image was decoded whole (Adam7, APNG).
            case image(Image)
        }

        private var decoder: Decoder
        private var rowsDelivered = 0

        public init(options: DecodingOptions = DecodingOptions()) {
            decoder = Decoder(options: options)
            decoder.bandRows = 64
        }

        /// The header, once IHDR has been read (see ``ImageDecoder/info``).
        public var info: ImageInfo? { decoder.info }

        /// Takes the next bytes of the file; every band of rows they complete
        /// goes to `rows`, in order.
        public mutating func append(_ bytes: UnsafeRawBufferPointer, rows: (Rows) -> Void) throws(ImageDecodingError)
            -> DecodingStatus {
            var delivered = rowsDelivered
            defer { rowsDelivered = delivered }
            return try decoder.append(bytes) { band in
                rows(band)
                delivered = band.firstRow &+ band.count
            }
        }

        /// Ends the decode: the streamed image's metadata and warnings, or the
        /// whole image; the errors of ``Decoder/finish()``. Rows decoded but not
        /// handed over yet (a band cut short by damaged data that a lenient
        /// decode keeps) go to `rows` first.
        public mutating func finish(rows: (Rows) -> Void) throws(ImageDecodingError) -> Outcome {
            guard decoder.streaming else { return .image(try decoder.finish()) }
            // The decoder's own result holds the band, not the image: keep its checks and metadata only.
            let image = try decoder.finish()
            if let scanlines = decoder.scanlines, let band = decoder.image, !scanlines.rowsDone {
                let first = scanlines.bandStart
                let count = min(scanlines.rowsDecoded &- first, band.height)
                if count > 0, first == rowsDelivered {
                    band.bytes.withUnsafeBytes { raw in
                        // `count` ≤ the band's height: whole rows of the band buffer.
                        rows(Rows(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<(count &* band.bytesPerRow)]),
                                  firstRow: first, count: count, width: band.width,
                                  height: decoder.header?.height ?? 0, format: band.format))
                    }
                    rowsDelivered = first &+ count
                }
            }
            return .streamed(rowsDecoded: rowsDelivered, metadata: image.metadata, warnings: image.warnings)
        }
    }
}
