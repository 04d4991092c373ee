import GlimpseCodec

/// A trivial incremental format for downloader tests (the real decoders land
/// separately): `"GRWS"`, width and height (one byte each), then RGBA rows.
/// Its partial image holds the rows received so far.
struct RowsTestDecoder: ImageDecoder {
    static let format: ImageFormat = .unknown
    static let magic: [UInt8] = Array("GRWS".utf8)

    static func encode(width: Int, height: Int, seed: UInt8 = 0) -> [UInt8] {
        var bytes = magic + [UInt8(width), UInt8(height)]
        for index in 0..<(width * height * 4) { bytes.append(UInt8(truncatingIfNeeded: index &+ Int(seed))) }
        return bytes
    }

    static var registry: DecoderRegistry {
        var registry = DecoderRegistry()
        registry.register(RowsTestDecoder.self) { bytes in
            let prefix = Array(bytes.prefix(4))
            guard prefix == Array(magic.prefix(prefix.count)) else { return .noMatch }
            return prefix.count == 4 ? .match : .needMoreData
        }
        return registry
    }

    private var bytes: [UInt8] = []
    private var failure: ImageDecodingError?

    init(options: DecodingOptions) {}

    mutating func append(_ chunk: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
        if let failure { throw failure }
        bytes.append(contentsOf: chunk)
        if bytes.count >= 4, Array(bytes.prefix(4)) != Self.magic {
            failure = .malformed(.other("magic"))
            throw .malformed(.other("magic"))
        }
        if let info, bytes.count >= 6 + info.width * info.height * 4 { return .complete }
        return .needMoreData
    }

    var info: ImageInfo? {
        guard bytes.count >= 6 else { return nil }
        return ImageInfo(format: .unknown, width: Int(bytes[4]), height: Int(bytes[5]))
    }

    /// Rows completed so far.
    var completedRows: Int {
        guard let info, info.width > 0 else { return 0 }
        return min(info.height, (bytes.count - 6) / (info.width * 4))
    }

    func partialImage() -> Image? {
        guard let info, completedRows > 0 else { return nil }
        var pixels = Array(bytes[6..<(6 + completedRows * info.width * 4)])
        pixels.append(contentsOf: repeatElement(0, count: (info.height - completedRows) * info.width * 4))
        guard let buffer = PixelBuffer(width: info.width, height: info.height, bytes: pixels) else { return nil }
        return Image(frames: [ImageFrame(pixels: buffer, isComplete: false)], format: .unknown)
    }

    mutating func finish() throws(ImageDecodingError) -> Image {
        if let failure { throw failure }
        guard let info, completedRows == info.height,
              let buffer = PixelBuffer(width: info.width, height: info.height,
                                       bytes: Array(bytes[6..<(6 + info.height * info.width * 4)])) else {
            failure = .truncated
            throw .truncated
        }
        return Image(pixels: buffer, format: .unknown)
    }
}
