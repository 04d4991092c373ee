/// A look at a PNG's chunk sequence without decoding it (PNG §5.3 chunk layout:
/// length, type, data, CRC; APNG's `acTL` precedes the first `IDAT`).
enum PNGChunks {
    /// Whether an `acTL` chunk (an APNG's animation control) comes before the first `IDAT`.
    /// Damaged or truncated chunk lengths end the walk: the decoder reports those.
    static func isAnimated(_ bytes: [UInt8]) -> Bool {
        precedesImageData(bytes, (0x61, 0x63, 0x54, 0x4C))  // acTL
    }

    /// Whether an `eXIf` chunk (PNG Third Edition §11.3.6, which it places before `IDAT`)
    /// comes before the first `IDAT`: its orientation may turn the image.
    static func hasExif(_ bytes: [UInt8]) -> Bool {
        precedesImageData(bytes, (0x65, 0x58, 0x49, 0x66))  // eXIf
    }

    /// Whether a chunk of `wanted` type comes before the first `IDAT`.
    private static func precedesImageData(_ bytes: [UInt8], _ wanted: (UInt8, UInt8, UInt8, UInt8)) -> Bool {
        var offset = 8
        while offset <= bytes.count - 8 {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = (bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7])
            if type == wanted { return true }
            if type == (0x49, 0x44, 0x41, 0x54) { return false }  // IDAT
            // Length (at most 2³¹ − 1, §5.3), type, data and CRC; never past the end.
            guard length <= bytes.count - offset - 12 else { return false }
            offset += 12 + length
        }
        return false
    }
}
