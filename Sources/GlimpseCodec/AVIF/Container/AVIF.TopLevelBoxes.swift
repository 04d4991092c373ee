extension AVIF {
    /// Finds the top-level boxes of a file as its bytes arrive (ISO/IEC 14496-12 §4.2,
    /// §6.2): `ftyp` first, then wherever they lie `meta` (the items) and `moov` (an image
    /// sequence's tracks). Boxes are skipped by their sizes, so `mdat` is never read here;
    /// the item extents inside it are found through `iloc`.
    struct TopLevelBoxes: Sendable {
        private(set) var fileType: FileType?
        private(set) var meta: BoxHeader?
        private(set) var movie: BoxHeader?
        /// Where the next top-level box starts; `nil` after a box of size 0 (it runs to the end).
        private var next: Int? = 0
        /// The end of `ftyp`, once its header is read and until its payload has arrived.
        private(set) var ftypNeed: Int?
        private let limits = ContainerLimits.standard

        /// Whether the boxes so far end exactly at `count` (or at a box of size 0): a file
        /// cut there has no box cut short.
        func endsCleanly(at count: Int) -> Bool { next == nil || next == count }

        /// How many bytes of the file the next header needs (16 for a 64-bit size); `nil`
        /// after a box of size 0.
        func nextNeed(_ bytes: [UInt8]) -> Int? {
            if let ftypNeed { return ftypNeed }
            guard let offset = next else { return nil }
            guard offset + 8 <= bytes.count else { return offset + 8 }
            let isLarge = bytes[offset] == 0 && bytes[offset + 1] == 0 && bytes[offset + 2] == 0 && bytes[offset + 3] == 1
            let isUUID = Array(bytes[offset + 4..<offset + 8]) == Array("uuid".utf8)
            return offset + (isLarge ? 16 : 8) + (isUUID ? 16 : 0)
        }

        /// Changes whenever a header is read: the decoder's check that a step made progress.
        var progress: (Int?, Int?) { (next, ftypNeed)
        }

        /// Reads the next top-level header, when the bytes so far hold it.
        mutating func scanOne(_ bytes: [UInt8]) throws(ImageDecodingError) {
            if let offset = next,
               let header = try BoxHeader.read(bytes, at: offset, available: bytes.count, limit: nil, parent: nil) {
                if fileType == nil {
                    guard header.type == .fileType else { throw .avif(.missingFileType) }
                    guard header.end - header.start <= 4_096 else { throw .limitExceeded(.entries) }
                    // The whole ftyp is this step's need: the header alone is not enough.
                    guard header.end <= bytes.count else { ftypNeed = header.end; return }
                    let fileType = try FileType(bytes, header)
                    guard fileType.has(.avif) || fileType.has(.avis) else {
                        throw .avif(.noCompatibleBrand(major: fileType.majorBrand))
                    }
                    self.fileType = fileType
                    ftypNeed = nil
                } else {
                    switch header.type {
                    case .fileType: throw .avif(.duplicate(type: .fileType))
                    case .meta:
                        guard meta == nil else { throw .avif(.duplicate(type: .meta)) }
                        try checkSize(header)
                        meta = header
                    case .movie:
                        guard movie == nil else { throw .avif(.duplicate(type: .movie)) }
                        try checkSize(header)
                        movie = header
                    default: break
                    }
                }
                next = header.extendsToEnd ? nil : header.end
            }
        }

        private func checkSize(_ header: BoxHeader) throws(ImageDecodingError) {
            guard header.extendsToEnd || header.end - header.start <= limits.maxParsedBoxBytes else {
                throw .limitExceeded(.totalBytes)
            }
        }

        /// The payload of `box` once all of it is in `bytes`; a box of size 0 only at the end of input.
        static func arrived(_ box: BoxHeader?, in bytes: [UInt8], atEnd: Bool) -> BoxHeader? {
            guard let box else { return nil }
            if box.extendsToEnd {
                guard atEnd else { return nil }
                return BoxHeader(type: box.type, start: box.start, payload: box.payload.lowerBound..<max(box.payload.lowerBound, bytes.count),
                                 extendsToEnd: true)
            }
            return box.end <= bytes.count ? box : nil
        }
    }
}
