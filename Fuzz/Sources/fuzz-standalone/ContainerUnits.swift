/// PNG chunk boundaries (PNG §5.3) and CRC repair.
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The byte ranges of whole chunks, or `nil` when `bytes` is not a PNG.
    static func ranges(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard bytes.starts(with: signature) else { return nil }
        var ranges: [Range<Int>] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 12 + length
            guard length <= 0x7FFF_FFFF, end <= bytes.count else { break }
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }

    /// Rewrites every whole chunk's CRC to match its type and data.
    static func repairCRCs(_ bytes: inout [UInt8]) {
        guard let chunks = ranges(bytes) else { return }
        for chunk in chunks {
            let crc = CRC32.checksum(bytes[(chunk.lowerBound + 4)..<(chunk.upperBound - 4)])
            for i in 0..<4 { bytes[chunk.upperBound - 4 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
        }
    }
}

/// JPEG marker segments before the first scan's entropy-coded data (T.81 §B.1.1.4).
enum JPEGSegments {
    static func ranges(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var ranges: [Range<Int>] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            ranges.append(offset..<end)
            if marker == 0xDA { break }
            offset = end
        }
        return ranges
    }
}

/// GIF data sub-blocks (GIF89a §15) after the header and colour table: a
/// rough walk that is good enough to pick units to duplicate or drop.
enum GIFBlocks {
    static func ranges(_ bytes: [UInt8]) -> [Range<Int>] {
        guard bytes.count > 13, bytes.starts(with: Array("GIF".utf8)) else { return [] }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
        var ranges: [Range<Int>] = []
        while offset < bytes.count {
            let size = Int(bytes[offset])
            let end = offset + 1 + size
            guard end <= bytes.count else { break }
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }
}

/// CRC-32 (ISO 3309, as PNG §5.5 uses it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
