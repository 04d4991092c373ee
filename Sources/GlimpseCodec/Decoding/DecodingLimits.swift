/// Bounds on what a decoder may allocate and do for one image.
///
/// Decoders check them from the header, before allocating any pixel memory,
/// and fail with ``ImageDecodingError/limitExceeded(_:)``. The defaults let every
/// ordinary photo and animation through while refusing decompression bombs.
public struct DecodingLimits: Sendable, Hashable {
    /// Which limit was hit.
    public enum Limit: String, Sendable, Hashable, CustomStringConvertible {
        case width, height, pixelsPerFrame, frames, totalBytes, scans
        /// A container's own fixed bound on its boxes, items, properties or extents (AVIF).
        case entries
        public var description: String { rawValue }
    }

    /// Largest accepted width in pixels (default 32 768).
    public var maxWidth: Int = 32_768
    /// Largest accepted height in pixels (default 32 768).
    public var maxHeight: Int = 32_768
    /// Largest number of pixels in one frame (default 128 Mi).
    public var maxPixelsPerFrame: Int = 128 << 20
    /// Largest number of frames (default 10 000).
    public var maxFrames: Int = 10_000
    /// Largest number of bytes the decoded result and the decoder's own working
    /// memory may take together (default 1 GiB).
    public var maxTotalBytes: Int = 1 << 30
    /// Largest number of scans of a progressive JPEG (default 100), so that a small
    /// hostile file cannot burn minutes of CPU.
    public var maxScans: Int = 100

    public init() {}

    public init(maxWidth: Int = 32_768, maxHeight: Int = 32_768, maxPixelsPerFrame: Int = 128 << 20,
                maxFrames: Int = 10_000, maxTotalBytes: Int = 1 << 30, maxScans: Int = 100) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixelsPerFrame = maxPixelsPerFrame
        self.maxFrames = maxFrames
        self.maxTotalBytes = maxTotalBytes
        self.maxScans = maxScans
    }

    /// Limits for a server decoding images its users supply: 50 megapixels per
    /// frame, 256 MiB per image (decoded pixels and working memory together) and
    /// 1,000 frames; the width, height and scan limits stay at their defaults.
    /// imgproxy allows 16.8 MP by default and thumbor 75 MP.
    public static var server: DecodingLimits {
        DecodingLimits(maxPixelsPerFrame: 50_000_000, maxFrames: 1_000, maxTotalBytes: 256 << 20)
    }

    /// Checks one frame's dimensions. Call it as soon as the header is parsed.
    public func checkDimensions(width: Int, height: Int) throws(ImageDecodingError) {
        guard width <= maxWidth else { throw .limitExceeded(.width) }
        guard height <= maxHeight else { throw .limitExceeded(.height) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixelsPerFrame else { throw .limitExceeded(.pixelsPerFrame) }
    }

    /// Checks a frame count (known up front, or the count reached so far).
    public func checkFrames(_ count: Int) throws(ImageDecodingError) {
        guard count <= maxFrames else { throw .limitExceeded(.frames) }
    }

    /// Checks that `count` items of `size` bytes fit the byte budget, without
    /// overflowing, and returns the product.
    @discardableResult
    public func checkBytes(_ count: Int, of size: Int = 1, alreadyUsed: Int = 0) throws(ImageDecodingError) -> Int {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, count >= 0, size >= 0 else { throw .limitExceeded(.totalBytes) }
        let (total, overflow2) = bytes.addingReportingOverflow(alreadyUsed)
        guard !overflow2, total <= maxTotalBytes else { throw .limitExceeded(.totalBytes) }
        return bytes
    }
}
