/// The memory layout of one pixel in a ``PixelBuffer``.
///
/// Both layouts are RGBA with straight (non-premultiplied) alpha, the form
/// every decoder in this module produces.
public enum PixelFormat: Sendable, Hashable, CaseIterable {
    /// Four 8-bit samples per pixel: red, green, blue, alpha.
    case rgba8
    /// Four 16-bit samples per pixel in host byte order: red, green, blue, alpha.
    /// Offered for 16-bit sources (PNG bit depth 16) when the caller asks for it.
    case rgba16

    /// Bytes one pixel occupies.
    @inlinable
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgba16: 8
        }
    }

    /// Bytes one sample (channel value) occupies.
    @inlinable
    public var bytesPerSample: Int { bytesPerPixel / 4 }

    /// The largest sample value.
    @inlinable
    public var maximumSampleValue: Int {
        switch self {
        case .rgba8: 255
        case .rgba16: 65535
        }
    }
}
