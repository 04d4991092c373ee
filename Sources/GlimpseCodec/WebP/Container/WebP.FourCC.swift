extension WebP {
    /// A RIFF chunk identifier (RFC 9649 §2.3: "Chunk FourCC"), held as the four bytes
    /// read little-endian, so that comparing a tag read from a file costs one load.
    struct FourCC: Hashable, Sendable, CustomStringConvertible {
        let value: UInt32

        init(_ value: UInt32) { self.value = value }

        init(_ name: StaticString) {
            var v: UInt32 = 0
            name.withUTF8Buffer { for (i, byte) in $0.enumerated() where i < 4 { v |= UInt32(byte) << UInt32(8 * i) } }
            value = v
        }

        var bytes: [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) } }

        /// The tag as text, with bytes outside printable ASCII shown as `?`.
        var description: String {
            String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
        }

        static let riff = FourCC("RIFF")
        static let webp = FourCC("WEBP")
        static let vp8 = FourCC("VP8 ")
        static let vp8l = FourCC("VP8L")
        static let vp8x = FourCC("VP8X")
        static let alph = FourCC("ALPH")
        static let anim = FourCC("ANIM")
        static let anmf = FourCC("ANMF")
        static let iccp = FourCC("ICCP")
        static let exif = FourCC("EXIF")
        static let xmp = FourCC("XMP ")
    }

    /// Sizes and bounds of the container (RFC 9649 §2, libwebp's `format_constants.h`).
    enum RIFF {
        /// `RIFF`, the size, `WEBP`.
        static let headerSize = 12
        /// A chunk's FourCC and size.
        static let chunkHeaderSize = 8
        /// The largest chunk payload libwebp accepts (`MAX_CHUNK_PAYLOAD`): a padded
        /// chunk with its header must still fit in 32 bits.
        static let maxChunkPayload = UInt32.max - 8 - 1
        /// Payload sizes of the fixed chunks.
        static let vp8xSize = 10, animSize = 6, anmfHeaderSize = 16
        /// Canvas and frame areas must stay below 2^32 pixels (`MAX_IMAGE_AREA`).
        static let maxImageArea: UInt64 = 1 << 32

        /// A chunk occupies its header, its payload and a padding byte when the payload is odd (§2.3).
        static func paddedSize(_ payload: Int) -> Int { payload &+ (payload & 1) }
    }
}

extension UnsafeRawBufferPointer {
    /// Little-endian unsigned value of `count` (1…4) bytes at `offset`; the caller checked the bounds.
    @inline(__always)
    func webpLittleEndian(_ offset: Int, _ count: Int) -> Int {
        var value = 0
        for i in 0..<count { value |= Int(self[offset &+ i]) << (8 &* i) }
        return value
    }
}
