extension AVIF {
    /// One box's type and extent in the file (ISO/IEC 14496-12 §4.2): a 32-bit size (or a
    /// 64-bit `largesize` after size 1, or the rest of the enclosing space for size 0) and a
    /// four-character type, with a 16-byte extended type after `uuid`.
    struct BoxHeader: Sendable, Hashable {
        let type: BoxType
        /// Where the box starts (its size field).
        let start: Int
        /// The payload, after the header.
        let payload: Range<Int>
        /// Whether the size was 0: the box runs to the end of its container (for a
        /// top-level box, the file's end).
        let extendsToEnd: Bool

        var end: Int { payload.upperBound }

        /// The header of the box at `offset`, in space ending at `limit`; `nil` when the
        /// header itself is not all below `available` yet (more bytes are needed).
        /// - Parameters:
        ///   - limit: the container's end, or `nil` at the top level while bytes still arrive.
        ///   - parent: the containing box, for the defect of a box running past it.
        static func read(_ bytes: [UInt8], at offset: Int, available: Int, limit: Int?,
                         parent: BoxType?) throws(ImageDecodingError) -> BoxHeader? {
            let bound = min(available, limit ?? available)
            guard offset + 8 <= bound else {
                if let limit, offset + 8 > limit, offset < limit {
                    throw .avif(.pastParent(type: BoxType("????"), parent: parent ?? BoxType.fileType))
                }
                return nil
            }
            var reader = ByteReader(bytes, offset..<bound, box: BoxType("box "))
            let size32 = try reader.uint32()
            let type = try reader.fourCC()
            var size = UInt64(size32)
            var headerLength = 8
            if size32 == 1 {
                guard reader.remaining >= 8 else {
                    if let limit, offset + 16 > limit { throw .avif(.truncated(type: type)) }
                    return nil
                }
                size = try reader.uint64()
                headerLength = 16
            }
            if type == BoxType("uuid") {
                guard reader.remaining >= 16 else {
                    if let limit, offset + headerLength + 16 > limit { throw .avif(.truncated(type: type)) }
                    return nil
                }
                headerLength += 16
            }
            let payloadStart = offset + headerLength
            if size32 == 0 {
                return BoxHeader(type: type, start: offset, payload: payloadStart..<(limit ?? Int.max), extendsToEnd: true)
            }
            guard size >= UInt64(headerLength) else { throw .avif(.size(type: type, size: size)) }
            // Sizes beyond Int's range cannot lie inside any buffer.
            let (end, overflow) = offset.addingReportingOverflow(Int(clamping: size))
            guard !overflow, size < UInt64(Int.max) else { throw .limitExceeded(.totalBytes) }
            if let limit, end > limit { throw .avif(.pastParent(type: type, parent: parent ?? BoxType.fileType)) }
            return BoxHeader(type: type, start: offset, payload: payloadStart..<end, extendsToEnd: false)
        }

        /// The boxes inside `range` of a box held whole, in order; more than `maxCount`
        /// of them is ``DecodingLimits/Limit/entries``.
        static func children(_ bytes: [UInt8], in range: Range<Int>, parent: BoxType,
                             maxCount: Int = 4_096) throws(ImageDecodingError) -> [BoxHeader] {
            var boxes: [BoxHeader] = []
            var offset = range.lowerBound
            while offset < range.upperBound {
                guard let header = try read(bytes, at: offset, available: range.upperBound, limit: range.upperBound,
                                            parent: parent) else {
                    throw .avif(.truncated(type: parent))
                }
                guard boxes.count < maxCount else { throw .limitExceeded(.entries) }
                boxes.append(header)
                offset = header.end
            }
            return boxes
        }
    }
}
