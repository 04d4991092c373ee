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

    private var rows = RowsBuffer()
    private var failure: ImageDecodingError?

    init(options: DecodingOptions) {}

    mutating func append(_ chunk: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
        if let failure { throw failure }
        rows.append(chunk)
        if rows.bytes.count >= 4, Array(rows.bytes.prefix(4)) != Self.magic {
            failure = .malformed(.other("magic"))
            throw .malformed(.other("magic"))
        }
        return rows.isComplete ? .complete : .needMoreData
    }

    var info: ImageInfo? { rows.info }

    /// Rows completed so far.
    var completedRows: Int { rows.completedRows }

    func partialImage() -> Image? { rows.partialImage() }

    mutating func finish() throws(ImageDecodingError) -> Image {
        if let failure { throw failure }
        guard let image = rows.image() else {
            failure = .truncated
            throw .truncated
        }
        return image
    }
}
