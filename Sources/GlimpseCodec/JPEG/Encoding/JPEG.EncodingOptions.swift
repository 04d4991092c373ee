extension JPEG {
    /// How ``JPEG/Encoder`` writes a file. The defaults are cjpeg's: quality 75,
    /// 4:2:0, standard Huffman tables, sequential, no restart markers.
    public struct EncodingOptions: Sendable, Hashable {
        /// Resolution of the chroma channels (ITU T.81 §A.1.1 sampling factors).
        public enum Subsampling: Sendable, Hashable, CaseIterable {
            /// Full-resolution chroma (luma sampling 1×1).
            case yCbCr444
            /// Chroma halved horizontally (luma sampling 2×1).
            case yCbCr422
            /// Chroma halved in both directions (luma sampling 2×2).
            case yCbCr420
            /// One luma channel (libjpeg's RGB → Y conversion).
            case grayscale
        }

        /// What becomes of transparent pixels; JPEG stores no alpha.
        public enum AlphaHandling: Sendable, Hashable {
            /// Composite over an opaque colour (straight alpha, rounded to nearest).
            case flatten(red: UInt8, green: UInt8, blue: UInt8)
            /// Encode the stored colour as if every pixel were opaque (what cjpeg does).
            case ignore

            /// Flatten over white.
            public static var flattenOverWhite: AlphaHandling { .flatten(red: 255, green: 255, blue: 255) }
        }

        /// Which metadata segments are written after JFIF APP0.
        public struct Metadata: OptionSet, Sendable, Hashable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// The ICC profile, in APP2 `ICC_PROFILE` chunks (ICC.1 annex B.4).
            public static let iccProfile = Metadata(rawValue: 1)
            /// An APP1 `Exif` segment carrying the orientation.
            public static let exif = Metadata(rawValue: 2)
            /// The JFIF density from ``ImageMetadata/density`` instead of 1:1.
            public static let density = Metadata(rawValue: 4)
            public static let all: Metadata = [.iccProfile, .exif, .density]
        }

        /// 1 … 100; libjpeg's `jpeg_quality_scaling` of the ITU T.81 Annex K
        /// tables, every entry capped at 255 (baseline).
        public var quality: Int
        public var subsampling: Subsampling
        /// Two passes: the first counts symbols, the second codes with tables
        /// built from the counts (libjpeg's `optimize_coding`).
        public var optimizesHuffmanTables: Bool
        /// libjpeg's simple progression script (SOF2, ten scans for colour, six
        /// for grey); always with optimised tables, as libjpeg does.
        public var isProgressive: Bool
        /// A restart marker every this many MCU rows; 0 for none (libjpeg's `restart_in_rows`).
        public var restartRows: Int
        public var alpha: AlphaHandling
        public var metadata: Metadata

        public init(quality: Int = 75, subsampling: Subsampling = .yCbCr420, optimizesHuffmanTables: Bool = false,
                    isProgressive: Bool = false, restartRows: Int = 0, alpha: AlphaHandling = .flattenOverWhite,
                    metadata: Metadata = [.iccProfile]) {
            self.quality = quality
            self.subsampling = subsampling
            self.optimizesHuffmanTables = optimizesHuffmanTables
            self.isProgressive = isProgressive
            self.restartRows = restartRows
            self.alpha = alpha
            self.metadata = metadata
        }
    }
}
