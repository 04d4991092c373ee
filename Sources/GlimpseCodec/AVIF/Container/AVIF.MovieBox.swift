extension AVIF {
    /// What an image sequence's `moov` box (ISO/IEC 14496-12 §8.2) says cheaply: the
    /// number of samples (frames) of its first picture or video track, from the sample
    /// size table (`stsz` or `stz2`, §8.7.3). Auxiliary (`auxv`, alpha) tracks are skipped.
    struct MovieBox: Sendable {
        let frameCount: Int?

        init(_ bytes: [UInt8], _ header: BoxHeader) throws(ImageDecodingError) {
            var count: Int?
            for track in try BoxHeader.children(bytes, in: header.payload, parent: .movie) where track.type == .track {
                guard let media = try Self.child(.media, of: track, bytes) else { continue }
                guard let handler = try Self.child(.handler, of: media, bytes) else { continue }
                var fields = ByteReader(bytes, handler)
                _ = try fields.fullBoxHeader()
                _ = try fields.uint32()
                let type = try fields.fourCC()
                guard type == .picture || type == .video,
                      let information = try Self.child(.mediaInformation, of: media, bytes),
                      let table = try Self.child(.sampleTable, of: information, bytes) else { continue }
                var sizes = try Self.child(.sampleSizes, of: table, bytes)
                if sizes == nil { sizes = try Self.child(.compactSampleSizes, of: table, bytes) }
                if let sizes {
                    var reader = ByteReader(bytes, sizes)
                    _ = try reader.fullBoxHeader()
                    _ = try reader.uint32()  // sample_size (stsz), or reserved and field_size (stz2)
                    count = Int(try reader.uint32())
                    break
                }
            }
            frameCount = count
        }

        private static func child(_ type: BoxType, of parent: BoxHeader, _ bytes: [UInt8]) throws(ImageDecodingError) -> BoxHeader? {
            try BoxHeader.children(bytes, in: parent.payload, parent: parent.type).first { $0.type == type }
        }
    }
}
