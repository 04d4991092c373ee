/// A format recognised by ``FormatSniffer``, with the details its first bytes
/// already show.
public struct SniffedFormat: Sendable, Hashable, CustomStringConvertible {
    /// Details visible in the leading bytes of some formats.
    public enum Variant: Sendable, Hashable {
        case none
        /// WebP `VP8 ` (lossy) bitstream.
        case webpLossy
        /// WebP `VP8L` (lossless) bitstream.
        case webpLossless
        /// WebP `VP8X` extended header, with its animation and alpha flags.
        case webpExtended(animated: Bool, alpha: Bool)
        /// TIFF `II` (little-endian); `big` for BigTIFF (version 43).
        case tiffLittleEndian(big: Bool)
        /// TIFF `MM` (big-endian); `big` for BigTIFF (version 43).
        case tiffBigEndian(big: Bool)
        /// JPEG XL bare codestream (`FF 0A`).
        case jpegXLCodestream
        /// JPEG XL in an ISO-BMFF container (`JXL ` signature box).
        case jpegXLContainer
    }

    public var format: ImageFormat
    public var variant: Variant

    public init(_ format: ImageFormat, _ variant: Variant = .none) {
        self.format = format
        self.variant = variant
    }

    public var description: String {
        switch variant {
        case .none: format.description
        case .webpLossy: "webp (lossy)"
        case .webpLossless: "webp (lossless)"
        case .webpExtended(let animated, let alpha):
            "webp (extended\(animated ? ", animated" : "")\(alpha ? ", alpha" : ""))"
        case .tiffLittleEndian(let big): big ? "tiff (II, BigTIFF)" : "tiff (II)"
        case .tiffBigEndian(let big): big ? "tiff (MM, BigTIFF)" : "tiff (MM)"
        case .jpegXLCodestream: "jxl (codestream)"
        case .jpegXLContainer: "jxl (container)"
        }
    }
}
