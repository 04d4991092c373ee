extension PNG {
    /// A pixel buffer whose bytes are not cleared first: the decoder writes
    /// every byte before the buffer is shown (whole rows, all Adam7 passes,
    /// whole frames), and ``Decoder/partialImage()`` clears the rows not yet
    /// written in its copy. Clearing 4 bytes per pixel up front would be a full
    /// extra pass over memory for large images.
    ///
    /// The caller has checked the size against ``DecodingLimits``.
    static func outputBuffer(width: Int, height: Int, format: PixelFormat, adviseHugePages: Bool) -> PixelBuffer {
        let count = width &* height &* format.bytesPerPixel
        let bytes = PixelStorage.uninitializedBytes(count: count, adviseHugePages: adviseHugePages)
        return PixelBuffer(width: width, height: height, format: format, bytes: bytes)
            ?? PixelBuffer(width: width, height: height, format: format)
    }
}
