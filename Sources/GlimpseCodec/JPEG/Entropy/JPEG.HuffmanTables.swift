extension JPEG {
    /// The eight Huffman table slots (DC 0…3, AC 0…3) in one flat array, so
    /// the entropy decoder reaches all of them through a single pointer.
    ///
    /// Each slot holds, as `Int32`s (T.81 §C and annex F.2.2.3):
    /// - a 9-bit lookahead table: `length << 8 | symbol` for codes of up to 9 bits, 0 otherwise;
    /// - a second, 10-bit table that decodes a whole coefficient at once when code and magnitude
    ///   bits fit in 10 bits: `value << 16 | run << 8 | bits used` (DC slots: the difference,
    ///   run 0);
    /// - `maxcode`/`valoffset` per code length for the canonical slow path;
    /// - the symbol values.
    struct HuffmanTables: Sendable {
        static let lookaheadBits = 9
        /// Window of the AC table that decodes code and magnitude together.
        static let fastACBits = 10
        static let lookupOffset = 0
        static let fastACOffset = 512
        static let maxcodeOffset = 1536
        static let valoffsetOffset = 1554
        static let valuesOffset = 1572
        static let stride = 1828

        var storage: [Int32]
        var defined: [Bool]
        /// Why a slot's table cannot be used, if it cannot. libjpeg checks the code
        /// space and the DC symbols when a scan first uses a table
        /// (`jpeg_make_d_derived_tbl`), so a broken table that no scan uses is no error.
        var defects: [JPEG.Defect?]

        init() {
            storage = [Int32](repeating: 0, count: 8 * Self.stride)
            defined = [Bool](repeating: false, count: 8)
            defects = [JPEG.Defect?](repeating: nil, count: 8)
            // libjpeg supplies the example tables of T.81 §K.3 when slots 0 and 1
            // are used without a DHT (Motion-JPEG files omit them).
            try? define(slot: 0, counts: Self.dcLuminanceCounts, values: Self.dcValues)
            try? define(slot: 1, counts: Self.dcChrominanceCounts, values: Self.dcValues)
            try? define(slot: 4, counts: Self.acLuminanceCounts, values: Self.acLuminanceValues)
            try? define(slot: 5, counts: Self.acChrominanceCounts, values: Self.acChrominanceValues)
        }

        /// Installs a table: `counts[l-1]` codes of length `l`, then the symbols.
        mutating func define(slot: Int, counts: [Int], values: [UInt8]) throws(ImageDecodingError) {
            let isDC = slot < 4
            let base = slot * Self.stride
            let total = counts.reduce(0, +)
            guard total <= 256, total == values.count else { throw .malformed(.jpeg(.huffmanTable)) }
            defined[slot] = true
            defects[slot] = nil
            for i in 0..<Self.stride { storage[base + i] = 0 }
            if isDC, values.contains(where: { $0 > 15 }) {
                defects[slot] = .huffmanDCSymbol
                return
            }
            var code = 0
            var index = 0
            for length in 1...16 {
                let n = counts[length - 1]
                // No code may be all ones (T.81 §C), which libjpeg checks after
                // assigning a length's codes. Checked before, so that a table
                // overflowing its code space never fills lookup entries past the end.
                guard code &+ n < (1 << length) else {
                    defects[slot] = .huffmanTable
                    return
                }
                if n > 0 {
                    storage[base + Self.valoffsetOffset + length] = Int32(index - code)
                    for _ in 0..<n {
                        if length <= Self.lookaheadBits {
                            let shift = Self.lookaheadBits - length
                            let first = code << shift
                            let symbol = Int(values[index])
                            for fill in first..<(first + (1 << shift)) {
                                storage[base + Self.lookupOffset + fill] = Int32(length << 8 | symbol)
                            }
                        }
                        let run = Int(values[index]) >> 4, size = Int(values[index]) & 15
                        if isDC && length + size <= Self.fastACBits {
                            // DC: the difference (0 for size 0) and the bits used; never 0 as a whole.
                            let shift = Self.fastACBits - length
                            let first = code << shift
                            for fill in first..<(first + (1 << shift)) {
                                var value = 0
                                if size > 0 {
                                    let extra = (fill >> (shift - size)) & ((1 << size) - 1)
                                    value = extra < (1 << (size - 1)) ? extra - (1 << size) + 1 : extra
                                }
                                storage[base + Self.fastACOffset + fill] = Int32(value << 16 | (length + size))
                            }
                        } else if !isDC && size > 0 && length + size <= Self.fastACBits {
                            // The magnitude bits follow the code inside the same 10-bit window.
                            let shift = Self.fastACBits - length
                            let first = code << shift
                            for fill in first..<(first + (1 << shift)) {
                                let extra = (fill >> (shift - size)) & ((1 << size) - 1)
                                let value = extra < (1 << (size - 1)) ? extra - (1 << size) + 1 : extra
                                storage[base + Self.fastACOffset + fill] = Int32(value << 16 | run << 8 | (length + size))
                            }
                        }
                        code += 1
                        index += 1
                    }
                    storage[base + Self.maxcodeOffset + length] = Int32(code - 1)
                } else {
                    storage[base + Self.maxcodeOffset + length] = -1
                }
                code <<= 1
            }
            storage[base + Self.maxcodeOffset + 17] = Int32.max
            for i in 0..<values.count { storage[base + Self.valuesOffset + i] = Int32(values[i]) }
        }

        // T.81 §K.3 example tables.
        static let dcLuminanceCounts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        static let dcChrominanceCounts = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
        static let dcValues: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        static let acLuminanceCounts = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
        static let acLuminanceValues: [UInt8] = [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
            0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
            0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
            0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
            0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
            0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
            0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
            0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
            0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
            0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
            0xF9, 0xFA,
        ]
        static let acChrominanceCounts = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77]
        static let acChrominanceValues: [UInt8] = [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
            0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
            0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
            0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
            0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
            0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
            0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
            0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
            0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
            0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
            0xF9, 0xFA,
        ]
    }
}
