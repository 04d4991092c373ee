extension WebP {
    /// Size and kind of one image bitstream, read from the first bytes of its chunk
    /// with libwebp's checks (`VP8GetInfo`, `VP8LGetInfo`), before anything is allocated.
    struct BitstreamInfo: Sendable, Hashable {
        var width: Int
        var height: Int
        var isLossless: Bool
        /// The `VP8L` header's alpha hint; always `false` for `VP8 ` (alpha comes from `ALPH`).
        var hasAlpha: Bool

        /// Bytes of a chunk's payload needed to read its header.
        static func headerSize(lossless: Bool) -> Int { lossless ? 5 : 10 }

        /// Reads the header of a `VP8 ` (RFC 6386 §9.1) or `VP8L` (RFC 9649 §3.2) payload of
        /// `chunkSize` bytes whose first bytes are `prefix`.
        init(lossless: Bool, prefix: UnsafeRawBufferPointer, chunkSize: Int) throws(ImageDecodingError) {
            isLossless = lossless
            if lossless {
                // 0x2f, then 14 bits width − 1, 14 bits height − 1, 1 bit alpha, 3 bits version.
                guard prefix.count >= 5, prefix[0] == 0x2F, prefix[4] >> 5 == 0 else {
                    throw WebP.malformed(.losslessHeader)
                }
                let bits = prefix.webpLittleEndian(1, 4)
                width = (bits & 0x3FFF) &+ 1
                height = ((bits >> 14) & 0x3FFF) &+ 1
                hasAlpha = (bits >> 28) & 1 != 0
            } else {
                guard prefix.count >= 10 else { throw WebP.malformed(.lossyHeader(.tooShort)) }
                guard prefix[3] == 0x9D, prefix[4] == 0x01, prefix[5] == 0x2A else {
                    throw WebP.malformed(.lossyHeader(.startCode))
                }
                let tag = prefix.webpLittleEndian(0, 3)
                // Key frame (bit 0 clear), profile 0…3, shown (bit 4).
                guard tag & 1 == 0, (tag >> 1) & 7 <= 3, (tag >> 4) & 1 == 1 else {
                    throw WebP.malformed(.lossyHeader(.notDisplayableKeyFrame))
                }
                guard tag >> 5 < chunkSize else { throw WebP.malformed(.lossyHeader(.partitionSize)) }
                width = prefix.webpLittleEndian(6, 2) & 0x3FFF
                height = prefix.webpLittleEndian(8, 2) & 0x3FFF
                guard width > 0, height > 0 else { throw WebP.malformed(.lossyHeader(.zeroSize)) }
                hasAlpha = false
            }
        }
    }
}
