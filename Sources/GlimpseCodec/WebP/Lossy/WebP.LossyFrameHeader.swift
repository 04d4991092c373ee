/// The uncompressed start of a lossy frame: the 3-byte frame tag and, for a key
/// frame, the start code and the 14-bit dimensions with their 2-bit scale
/// hints (RFC 6386 §9.1). Parsing it reads ten bytes and allocates nothing, so
/// the container can report a still's size before any pixel memory exists.
extension WebP {
    struct LossyFrameHeader: Sendable, Hashable {
        /// Bytes of the tag, start code and dimensions.
        static let byteCount = 10

        /// Frame width in pixels (1...16383).
        let width: Int
        /// Frame height in pixels (1...16383).
        let height: Int
        /// Upscaling hint for the width (0: none, 1: 5/4, 2: 5/3, 3: 2); decoders, libwebp included, ignore it.
        let horizontalScale: Int
        /// Upscaling hint for the height, as ``horizontalScale``.
        let verticalScale: Int
        /// Version number (0...3); every version decodes alike in libwebp.
        let profile: Int
        /// Length of the first partition (modes and header), which follows the ten bytes.
        let firstPartitionSize: Int

        /// Parses the first ten bytes of a `VP8 ` chunk payload, rejecting what
        /// libwebp's `VP8GetInfo` and `VP8GetHeaders` reject. `payload` is the whole
        /// payload, or its first bytes when `payloadSize` gives the whole size.
        init(parsing payload: UnsafeRawBufferPointer, payloadSize: Int? = nil) throws(ImageDecodingError) {
            guard payload.count >= 3 else { throw LossyDefect.headerTruncated.error }
            let tag = Int(payload[0]) | Int(payload[1]) << 8 | Int(payload[2]) << 16
            guard tag & 1 == 0 else { throw LossyDefect.notKeyFrame.error }
            profile = (tag >> 1) & 7
            guard profile <= 3 else { throw LossyDefect.unknownProfile(profile).error }
            guard (tag >> 4) & 1 == 1 else { throw LossyDefect.invisibleFrame.error }
            firstPartitionSize = tag >> 5
            guard payload.count >= Self.byteCount else { throw LossyDefect.headerTruncated.error }
            guard payload[3] == 0x9d, payload[4] == 0x01, payload[5] == 0x2a else {
                throw LossyDefect.badStartCode.error
            }
            width = (Int(payload[6]) | Int(payload[7]) << 8) & 0x3fff
            horizontalScale = Int(payload[7]) >> 6
            height = (Int(payload[8]) | Int(payload[9]) << 8) & 0x3fff
            verticalScale = Int(payload[9]) >> 6
            guard width > 0, height > 0 else { throw LossyDefect.zeroDimension.error }
            guard firstPartitionSize <= (payloadSize ?? payload.count) &- Self.byteCount else {
                throw LossyDefect.firstPartitionTooLong.error
            }
        }

        /// Parses the header from a `VP8 ` chunk payload held in an array slice.
        init(parsing payload: ArraySlice<UInt8>) throws(ImageDecodingError) {
            let result: Result<LossyFrameHeader, ImageDecodingError> = payload.withUnsafeBytes { raw in
                do throws(ImageDecodingError) { return .success(try LossyFrameHeader(parsing: raw)) } catch {
                    return .failure(error)
                }
            }
            self = try result.get()
        }

        /// Macroblock columns.
        var macroblockColumns: Int { (width &+ 15) >> 4 }
        /// Macroblock rows.
        var macroblockRows: Int { (height &+ 15) >> 4 }
    }
}
