import Foundation

extension ImagePipeline {
    /// An image encoded to send or to store: the bytes, their format and media type,
    /// the size they decode to, and how the call that made them spent its time.
    ///
    /// What ``ImagePipeline/data(for:format:)`` returns, e.g. as an HTTP response body:
    ///
    /// ```swift
    /// let encoded = try await pipeline.data(for: request, format: .webp)
    /// // Content-Type: encoded.contentType ("image/webp"); body: encoded.bytes
    /// ```
    public struct EncodedImage: Sendable {
        /// The encoded image.
        public var bytes: [UInt8]
        /// The format of ``bytes``.
        public var format: ImageFormat
        /// The media type of ``bytes`` (RFC 9110 §8.3), e.g. `image/jpeg`.
        public var contentType: String
        /// The width the bytes decode to, in pixels (the processed image's).
        public var width: Int
        /// The height the bytes decode to, in pixels.
        public var height: Int
        /// The format of the original the image was made from (a WebP's JPEG thumbnail: `.webp`).
        public var sourceFormat: ImageFormat
        /// Where the call spent its time: a data-tier hit has a ``ImageTask/Metrics/dataLookup``
        /// and neither a decode nor an encode.
        public var metrics: ImageTask.Metrics

        public init(bytes: [UInt8], format: ImageFormat, contentType: String? = nil, width: Int, height: Int,
                    sourceFormat: ImageFormat? = nil, metrics: ImageTask.Metrics = ImageTask.Metrics(tier: .memory)) {
            self.bytes = bytes
            self.format = format
            self.contentType = contentType ?? Self.contentType(of: format)
            self.width = width
            self.height = height
            self.sourceFormat = sourceFormat ?? format
            self.metrics = metrics
        }

        /// The media type of `format` (IANA's image types; `application/octet-stream` for
        /// formats without one).
        public static func contentType(of format: ImageFormat) -> String {
            switch format {
            case .jpeg: "image/jpeg"
            case .png: "image/png"
            case .apng: "image/apng"
            case .gif: "image/gif"
            case .webp: "image/webp"
            case .avif: "image/avif"
            case .tiff: "image/tiff"
            case .bmp: "image/bmp"
            case .ico, .cur: "image/x-icon"
            case .heic: "image/heic"
            case .heif: "image/heif"
            case .jpegXL: "image/jxl"
            case .svg: "image/svg+xml"
            case .pdf: "application/pdf"
            case .unknown: "application/octet-stream"
            }
        }

        /// The format a media type names (its parameters ignored), when it is an image type
        /// of ``contentType(of:)``.
        static func format(ofContentType mediaType: String) -> ImageFormat? {
            let type = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type else { return nil }
            if type == "image/jpg" || type == "image/pjpeg" { return .jpeg }
            return ImageFormat.allCases.first { $0 != .unknown && contentType(of: $0) == type }
        }
    }
}
