/// A rectangle of pixels stored row after row with no padding.
///
/// `PixelBuffer` is a value type: copies share storage until one of them is
/// written to. Rows are reached without copying through ``row(_:)`` (an
/// `ArraySlice` that shares storage) or ``withUnsafeRow(_:_:)``.
public struct PixelBuffer: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Layout of each pixel.
    public let format: PixelFormat
    /// The samples, `bytesPerRow * height` bytes. For ``PixelFormat/rgba16`` each
    /// sample is a `UInt16` in host byte order.
    public var bytes: [UInt8]

    /// Bytes in one row (`width * format.bytesPerPixel`; rows are never padded).
    @inlinable
    public var bytesPerRow: Int { width &* format.bytesPerPixel }

    /// Creates a buffer filled with zero (transparent black).
    ///
    /// Callers size-check untrusted dimensions with ``DecodingLimits`` first; this
    /// initialiser assumes `width * height * bytesPerPixel` fits in memory.
    public init(width: Int, height: Int, format: PixelFormat = .rgba8) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.format = format
        self.bytes = [UInt8](repeating: 0, count: self.width * self.height * format.bytesPerPixel)
    }

    /// Wraps existing samples. Returns `nil` when `bytes.count` does not match
    /// the dimensions.
    public init?(width: Int, height: Int, format: PixelFormat = .rgba8, bytes: [UInt8]) {
        guard width >= 0, height >= 0 else { return nil }
        let (count, overflow) = width.multipliedReportingOverflow(by: height &* format.bytesPerPixel)
        guard !overflow, count == bytes.count else { return nil }
        self.width = width
        self.height = height
        self.format = format
        self.bytes = bytes
    }

    /// The number of pixels.
    @inlinable
    public var pixelCount: Int { width &* height }

    /// The byte range of row `y` inside ``bytes``.
    @inlinable
    public func rowRange(_ y: Int) -> Range<Int> {
        let start = y &* bytesPerRow
        return start..<(start &+ bytesPerRow)
    }

    /// Row `y` as a slice sharing storage with ``bytes`` (no copy).
    @inlinable
    public func row(_ y: Int) -> ArraySlice<UInt8> {
        bytes[rowRange(y)]
    }

    /// Calls `body` with row `y` without copying it.
    @inlinable
    public func withUnsafeRow<R>(_ y: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = rowRange(y)
        return try bytes.withUnsafeBufferPointer { all in
            // `range` lies inside `bytes` for every 0 <= y < height by construction.
            try body(UnsafeBufferPointer(rebasing: all[range]))
        }
    }

    /// Calls `body` with row `y` for writing, without copying it.
    @inlinable
    public mutating func withUnsafeMutableRow<R>(_ y: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = rowRange(y)
        return try bytes.withUnsafeMutableBufferPointer { all in
            try body(UnsafeMutableBufferPointer(rebasing: all[range]))
        }
    }

    /// The RGBA value of one pixel, each sample widened to `UInt16`
    /// (8-bit samples keep their 0…255 range). Meant for tests and tools, not hot loops.
    public func pixel(x: Int, y: Int) -> SIMD4<UInt16> {
        let offset = y &* bytesPerRow &+ x &* format.bytesPerPixel
        switch format {
        case .rgba8:
            return SIMD4(UInt16(bytes[offset]), UInt16(bytes[offset + 1]), UInt16(bytes[offset + 2]), UInt16(bytes[offset + 3]))
        case .rgba16:
            return bytes.withUnsafeBytes { raw in
                SIMD4(
                    raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self),
                    raw.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self),
                    raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self),
                    raw.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self))
            }
        }
    }

    /// This buffer converted to `format`. 16 → 8 bits keeps the high byte of each
    /// sample (what libpng's `png_set_strip_16` does); 8 → 16 bits replicates the
    /// byte (`v * 257`), so the round trip is exact.
    public func converted(to format: PixelFormat) -> PixelBuffer {
        if format == self.format { return self }
        var out = PixelBuffer(width: width, height: height, format: format)
        let samples = pixelCount &* 4
        switch (self.format, format) {
        case (.rgba16, .rgba8):
            bytes.withUnsafeBytes { source in
                out.bytes.withUnsafeMutableBufferPointer { destination in
                    for i in 0..<samples {
                        destination[i] = UInt8(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self) >> 8)
                    }
                }
            }
        case (.rgba8, .rgba16):
            bytes.withUnsafeBufferPointer { source in
                out.bytes.withUnsafeMutableBytes { destination in
                    for i in 0..<samples {
                        destination.storeBytes(of: UInt16(source[i]) &* 257, toByteOffset: i &* 2, as: UInt16.self)
                    }
                }
            }
        default:
            break
        }
        return out
    }
}
