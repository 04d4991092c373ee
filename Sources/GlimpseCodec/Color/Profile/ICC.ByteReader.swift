extension ICC {
    /// Big-endian reads (§4.2: all ICC numbers are big-endian) inside one tag's
    /// bytes. Every read is bounds-checked and throws ``ProfileError/tagTruncated(_:)``.
    struct ByteReader {
        let bytes: [UInt8]
        /// The tag's bytes inside `bytes`; offsets passed to reads are relative to its start.
        let range: Range<Int>
        let tag: Signature

        var count: Int { range.count }

        func require(_ offset: Int, _ length: Int) throws(ProfileError) {
            guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
                throw .tagTruncated(tag)
            }
        }

        func uint8(_ offset: Int) throws(ProfileError) -> UInt8 {
            try require(offset, 1)
            return bytes[range.lowerBound + offset]
        }

        func uint16(_ offset: Int) throws(ProfileError) -> UInt16 {
            try require(offset, 2)
            let at = range.lowerBound + offset
            return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
        }

        func uint32(_ offset: Int) throws(ProfileError) -> UInt32 {
            try require(offset, 4)
            let at = range.lowerBound + offset
            return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }

        /// An `s15Fixed16Number` (§4.6).
        func s15Fixed16(_ offset: Int) throws(ProfileError) -> Double {
            Double(Int32(bitPattern: try uint32(offset))) / 65536
        }

        func signature(_ offset: Int) throws(ProfileError) -> Signature {
            Signature(rawValue: try uint32(offset))
        }

        /// The type signature every tag starts with (§10.1), after which 4 bytes are reserved.
        var type: Signature {
            get throws(ProfileError) { try signature(0) }
        }

        /// A reader over a sub-range, e.g. a curve nested inside an `mAB` tag.
        func sub(_ offset: Int, _ length: Int) throws(ProfileError) -> ByteReader {
            try require(offset, length)
            let start = range.lowerBound + offset
            return ByteReader(bytes: bytes, range: start..<(start + length), tag: tag)
        }

        /// The rest of the tag from `offset`.
        func suffix(from offset: Int) throws(ProfileError) -> ByteReader {
            try require(offset, 0)
            return try sub(offset, count - offset)
        }
    }
}
