import GlimpseCodec

/// The bytes of a rows-format file received so far — four magic bytes, width and
/// height (one byte each), then RGBA rows — and the images they make; shared by
/// ``RowsTestDecoder`` and ``RecordingRowsDecoder``.
struct RowsBuffer {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ chunk: UnsafeRawBufferPointer) { bytes.append(contentsOf: chunk) }

    var info: ImageInfo? {
        guard bytes.count >= 6 else { return nil }
        return ImageInfo(format: .unknown, width: Int(bytes[4]), height: Int(bytes[5]))
    }

    var isComplete: Bool {
        guard let info else { return false }
        return bytes.count >= 6 + info.width * info.height * 4
    }

    /// Rows completed so far.
    var completedRows: Int {
        guard let info, info.width > 0 else { return 0 }
        return min(info.height, (bytes.count - 6) / (info.width * 4))
    }

    /// The rows so far over transparent black, `nil` before the first row.
    func partialImage() -> Image? {
        guard let info, completedRows > 0 else { return nil }
        var pixels = Array(bytes[6..<(6 + completedRows * info.width * 4)])
        pixels.append(contentsOf: repeatElement(0, count: (info.height - completedRows) * info.width * 4))
        guard let buffer = PixelBuffer(width: info.width, height: info.height, bytes: pixels) else { return nil }
        return Image(frames: [ImageFrame(pixels: buffer, isComplete: false)], format: .unknown)
    }

    /// The whole image, `nil` while rows are missing.
    func image() -> Image? {
        guard let info, completedRows == info.height,
              let buffer = PixelBuffer(width: info.width, height: info.height,
                                       bytes: Array(bytes[6..<(6 + info.height * info.width * 4)])) else { return nil }
        return Image(pixels: buffer, format: .unknown)
    }
}
