extension AVIF {
    /// One reference of `iref` (ISO/IEC 14496-12 §8.11.12): from an item to others, typed
    /// (`auxl` alpha and depth planes to their master, `dimg` a derived image to its inputs in
    /// order, `thmb` a thumbnail to its image, `cdsc` metadata to what it describes, `prem`
    /// a colour image to the alpha it is premultiplied by).
    public struct ItemReference: Sendable, Hashable {
        public let type: BoxType
        public let from: UInt32
        public let to: [UInt32]

        /// Every reference of an `iref` box (version 0: 16-bit ids, 1: 32-bit).
        static func parseList(_ bytes: [UInt8], _ header: BoxHeader, limits: ContainerLimits) throws(ImageDecodingError) -> [ItemReference] {
            var reader = ByteReader(bytes, header)
            let (version, _) = try reader.fullBoxHeader()
            guard version <= 1 else { throw .avif(.version(type: .itemReference, version: version)) }
            let idSize = version == 0 ? 2 : 4
            var references: [ItemReference] = []
            var total = 0
            for box in try BoxHeader.children(bytes, in: reader.remainingRange, parent: .itemReference, maxCount: limits.maxReferences) {
                var entry = ByteReader(bytes, box)
                let from = UInt32(try entry.unsigned(byteCount: idSize))
                let count = Int(try entry.uint16())
                total += count
                try limits.check(total, limits.maxReferences)
                guard count * idSize <= entry.remaining else { throw .avif(.truncated(type: box.type)) }
                var to: [UInt32] = []
                to.reserveCapacity(count)
                for _ in 0..<count { to.append(UInt32(try entry.unsigned(byteCount: idSize))) }
                references.append(ItemReference(type: box.type, from: from, to: to))
            }
            return references
        }
    }
}
