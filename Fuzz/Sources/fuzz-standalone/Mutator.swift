/// Mutations for the standalone mode: generic byte edits plus edits that know
/// the containers (PNG chunks with their CRCs, JPEG marker segments, GIF
/// sub-blocks, WebP RIFF chunks with their sizes), so that mutated files get past checksums and framing and reach
/// the decoders' deeper states.
struct Mutator {
    var random: SplitMix64
    let pool: [[UInt8]]

    private static let interestingBytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF, 0x10, 0x40]
    private static let interestingLengths: [UInt32] = [0, 1, 2, 0x7F, 0xFF, 0x100, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]

    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        let rounds = 1 + Int(random.next() % 4)
        for _ in 0..<rounds {
            switch random.next() % 10 {
            case 0, 1: flipBit(&bytes)
            case 2: setInterestingByte(&bytes)
            case 3: insertBytes(&bytes)
            case 4: deleteRange(&bytes)
            case 5: duplicateRange(&bytes)
            case 6: splice(&bytes)
            case 7: editLengthField(&bytes)
            case 8: editContainer(&bytes)
            default: truncate(&bytes)
            }
        }
        // Most PNG mutations are wasted on a CRC mismatch; repair the CRCs of most of them.
        if random.next() % 4 != 0 { PNGChunks.repairCRCs(&bytes) }
        // Likewise a RIFF size that no longer matches the file stops a WebP at its header.
        if random.next() % 4 != 0 { RIFFChunks.repairSizes(&bytes) }
        return bytes
    }

    private mutating func position(in bytes: [UInt8]) -> Int? {
        bytes.isEmpty ? nil : Int(random.next() % UInt64(bytes.count))
    }

    private mutating func flipBit(_ bytes: inout [UInt8]) {
        guard let at = position(in: bytes) else { return }
        bytes[at] ^= 1 << (random.next() % 8)
    }

    private mutating func setInterestingByte(_ bytes: inout [UInt8]) {
        guard let at = position(in: bytes) else { return }
        bytes[at] = Self.interestingBytes[Int(random.next() % UInt64(Self.interestingBytes.count))]
    }

    private mutating func insertBytes(_ bytes: inout [UInt8]) {
        let at = position(in: bytes) ?? 0
        let count = 1 + Int(random.next() % 16)
        let inserted = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.insert(contentsOf: inserted, at: min(at, bytes.count))
    }

    private mutating func deleteRange(_ bytes: inout [UInt8]) {
        guard let at = position(in: bytes) else { return }
        let count = 1 + Int(random.next() % 64)
        bytes.removeSubrange(at..<min(at + count, bytes.count))
    }

    private mutating func duplicateRange(_ bytes: inout [UInt8]) {
        guard let from = position(in: bytes), let to = position(in: bytes) else { return }
        let count = 1 + Int(random.next() % 256)
        let segment = bytes[from..<min(from + count, bytes.count)]
        bytes.insert(contentsOf: segment, at: to)
    }

    private mutating func splice(_ bytes: inout [UInt8]) {
        guard !pool.isEmpty, let cut = position(in: bytes) else { return }
        let other = pool[Int(random.next() % UInt64(pool.count))]
        guard !other.isEmpty else { return }
        let otherCut = Int(random.next() % UInt64(other.count))
        bytes = Array(bytes[..<cut]) + other[otherCut...]
    }

    private mutating func editLengthField(_ bytes: inout [UInt8]) {
        guard bytes.count >= 4, let at = position(in: Array(bytes.dropLast(3))) else { return }
        let value = Self.interestingLengths[Int(random.next() % UInt64(Self.interestingLengths.count))]
        if random.next() % 2 == 0 {
            for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        } else {
            bytes[at] = UInt8(truncatingIfNeeded: value >> 8)
            bytes[at + 1] = UInt8(truncatingIfNeeded: value)
        }
    }

    private mutating func truncate(_ bytes: inout [UInt8]) {
        guard let at = position(in: bytes) else { return }
        bytes.removeSubrange(at...)
    }

    /// Duplicates, removes or swaps a whole unit of the container: a PNG chunk,
    /// a WebP chunk, a JPEG marker segment or a GIF sub-block.
    private mutating func editContainer(_ bytes: inout [UInt8]) {
        let units = PNGChunks.ranges(bytes) ?? RIFFChunks.ranges(bytes) ?? JPEGSegments.ranges(bytes) ?? GIFBlocks.ranges(bytes)
        guard units.count >= 1 else { return flipBit(&bytes) }
        let a = units[Int(random.next() % UInt64(units.count))]
        let b = units[Int(random.next() % UInt64(units.count))]
        switch random.next() % 3 {
        case 0: bytes.insert(contentsOf: bytes[a], at: b.lowerBound)
        case 1: bytes.removeSubrange(a)
        default:
            guard a.upperBound <= b.lowerBound else { return }
            bytes = Array(bytes[..<a.lowerBound]) + bytes[b] + bytes[a.upperBound..<b.lowerBound] + bytes[a] + bytes[b.upperBound...]
        }
    }
}
