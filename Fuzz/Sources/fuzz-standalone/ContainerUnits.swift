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

/// RIFF chunks of a WebP file (RFC 9649 §2), and repair of their size fields.
enum RIFFChunks {
    static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    static func size(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    /// The byte ranges of whole chunks (padding included), walking into `ANMF` frames
    /// after their 16-byte header, or `nil` when `bytes` is not a WebP.
    static func ranges(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard isWebP(bytes) else { return nil }
        var ranges: [Range<Int>] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = size(bytes, at: offset + 4)
            let end = offset + 8 + size + (size & 1)
            guard size <= 0x7FFF_FFFF, end <= bytes.count else { break }
            ranges.append(offset..<end)
            offset = Array(bytes[offset..<offset + 4]) == Array("ANMF".utf8) && size >= 16 ? offset + 24 : end
        }
        return ranges
    }

    /// Rewrites the RIFF size to the file's length and, where a chunk's size no longer
    /// fits the bytes after it, sets it to what is left; `ANMF` sizes are set to cover
    /// the chunks nested in them.
    static func repairSizes(_ bytes: inout [UInt8]) {
        guard isWebP(bytes) else { return }
        func store(_ value: Int, at offset: Int) {
            for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
        }
        store(bytes.count - 8, at: 4)
        var offset = 12
        var frameStart: Int?
        while offset + 8 <= bytes.count {
            var size = size(bytes, at: offset + 4)
            if offset + 8 + size > bytes.count {
                size = bytes.count - offset - 8
                store(size, at: offset + 4)
            }
            let isFrame = Array(bytes[offset..<offset + 4]) == Array("ANMF".utf8) && size >= 16
            if isFrame {
                if let start = frameStart { store(offset - start - 8, at: start + 4) }
                frameStart = offset
                offset += 24
            } else {
                offset += 8 + size + (size & 1)
            }
        }
        if let start = frameStart { store(min(offset, bytes.count) - start - 8, at: start + 4) }
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
