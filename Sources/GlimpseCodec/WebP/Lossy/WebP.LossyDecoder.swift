/// Decoder of a lossy WebP frame: the payload of a `VP8 ` chunk, one VP8 key
/// frame (RFC 6386), converted to 8-bit RGBA exactly as libwebp's
/// `WebPDecodeRGBA` converts it (fancy upsampling, 14-bit fixed-point BT.601).
///
/// The container uses it in two steps:
///
/// 1. ``header(of:)`` reads the ten-byte frame header (size and scale hints)
///    without allocating, for the image's info.
/// 2. ``decode(_:into:origin:bytesPerRow:limits:rowsDecoded:)`` checks the
///    size against ``DecodingLimits``, decodes the whole payload and writes
///    every pixel of the frame as RGBA with alpha 255 (the container applies
///    `ALPH` afterwards) into a buffer the caller owns, at any origin and row
///    pitch, so that a frame can go straight into a larger canvas. Rows are
///    reported in bands as they become final (one macroblock row, 16 pixels,
///    later by the loop filter's reach), for partial images.
///
/// Errors are permanent ``ImageDecodingError``s; a payload that libwebp
/// rejects (truncated partitions included) is rejected.
extension WebP {
    enum LossyDecoder {
        /// The frame header of a `VP8 ` payload (RFC 6386 §9.1).
        static func header(of payload: ArraySlice<UInt8>) throws(ImageDecodingError) -> LossyFrameHeader {
            try LossyFrameHeader(parsing: payload)
        }

        /// Decodes a `VP8 ` chunk payload into `destination`: pixel (x, y) of
        /// the frame goes to bytes `origin + y * bytesPerRow + 4 * x ..< +4`.
        ///
        /// - Parameters:
        ///   - payload: the chunk payload (without the chunk header or padding).
        ///   - destination: caller-owned memory, at least
        ///     `origin + (height - 1) * bytesPerRow + 4 * width` bytes.
        ///   - rowsDecoded: called with each band of rows that is final, top to bottom.
        /// - Returns: the frame header.
        @discardableResult
        static func decode(_ payload: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
                           origin: Int = 0, bytesPerRow: Int? = nil, limits: DecodingLimits = DecodingLimits(),
                           rowsDecoded: (Range<Int>) -> Void = { _ in }) throws(ImageDecodingError) -> LossyFrameHeader {
            let header = try LossyFrameHeader(parsing: payload)
            try limits.checkDimensions(width: header.width, height: header.height)
            let output = try LossyOutput(destination, origin: origin, bytesPerRow: bytesPerRow ?? header.width * 4,
                                         width: header.width, height: header.height)

            // First partition: frame-wide header, then the modes of every macroblock (RFC 6386 §9.2–9.11).
            let firstStart = LossyFrameHeader.byteCount
            let firstEnd = firstStart + header.firstPartitionSize
            var modes = LossyBoolDecoder(UnsafeRawBufferPointer(rebasing: payload[firstStart..<firstEnd]))
            var picture = LossyPictureHeader()
            try picture.parseStart(&modes)

            // Token partitions: 3-byte sizes of all but the last, then the data (RFC 6386 §9.5).
            let count = picture.partitionCount
            let sizesEnd = firstEnd + 3 * (count - 1)
            guard sizesEnd <= payload.count else { throw LossyDefect.tokenPartitionsMissing.error }
            let partitions = UnsafeMutablePointer<LossyBoolDecoder>.allocate(capacity: count)
            defer { partitions.deallocate() }
            var start = sizesEnd
            for p in 0..<count {
                var end = payload.count
                if p < count - 1 {
                    let s = firstEnd + 3 * p
                    let size = Int(payload[s]) | Int(payload[s + 1]) << 8 | Int(payload[s + 2]) << 16
                    end = start + Swift.min(size, payload.count - start)  // libwebp clips a size to what is left
                } else {
                    // libwebp requires the last partition to hold at least one byte.
                    guard start < payload.count else { throw LossyDefect.tokenPartitionsMissing.error }
                }
                (partitions + p).initialize(to: LossyBoolDecoder(UnsafeRawBufferPointer(rebasing: payload[start..<end])))
                start = end
            }
            picture.parseRest(&modes)

            _ = try limits.checkBytes(LossyFrameDecoder.workingBytes(columns: header.macroblockColumns,
                                                                     filterType: picture.filterType))
            var frame = LossyFrameDecoder(header: header, picture: picture)
            try frame.run(modes: &modes, partitions: partitions, partitionCount: count, output: output,
                          rowsDecoded: rowsDecoded)
            return header
        }

        /// Decodes a `VP8 ` payload held in an array slice into `pixels`; see
        /// ``decode(_:into:origin:bytesPerRow:limits:rowsDecoded:)``.
        @discardableResult
        static func decode(_ payload: ArraySlice<UInt8>, into pixels: inout [UInt8], origin: Int = 0,
                           bytesPerRow: Int? = nil, limits: DecodingLimits = DecodingLimits(),
                           rowsDecoded: (Range<Int>) -> Void = { _ in }) throws(ImageDecodingError) -> LossyFrameHeader {
            let result: Result<LossyFrameHeader, ImageDecodingError> = payload.withUnsafeBytes { input in
                pixels.withUnsafeMutableBytes { output in
                    do throws(ImageDecodingError) {
                        return .success(try decode(input, into: output, origin: origin, bytesPerRow: bytesPerRow,
                                                   limits: limits, rowsDecoded: rowsDecoded))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return try result.get()
        }
    }
}
