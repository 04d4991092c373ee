extension WebP {
    /// The alpha of a lossy image from its `ALPH` chunk (RFC 9649 §2.7.1.4), decoded the
    /// way libwebp's `alpha_dec.c` does with its default options.
    enum AlphaPlane {
        /// The header byte: `Rsv(2) | P(2) | F(2) | C(2)`, from the most significant bit.
        struct Header: Sendable, Hashable {
            /// 0: raw bytes; 1: a headerless lossless (VP8L) image stream whose green channel is the alpha.
            var isCompressed: Bool
            var filter: AlphaFilter
            /// Pre-processing (0 or 1): 1 says the encoder quantised the levels. libwebp only
            /// uses it to allow optional dithering, which is off by default; the values decode as stored.
            var preprocessing: UInt8

            init(_ byte: UInt8) throws(ImageDecodingError) {
                let method = byte & 3, preprocessing = (byte >> 4) & 3
                guard method <= 1, preprocessing <= 1, byte >> 6 == 0,
                      let filter = AlphaFilter(rawValue: (byte >> 2) & 3) else {
                    throw WebP.malformed(.alphaHeader(byte))
                }
                isCompressed = method == 1
                self.filter = filter
                self.preprocessing = preprocessing
            }
        }

        /// Decodes `chunk` (the whole `ALPH` payload) into `width * height` alpha values.
        /// The caller checked the plane's size against the limits.
        static func decode(_ chunk: UnsafeRawBufferPointer, width: Int, height: Int,
                           limits: DecodingLimits) throws(ImageDecodingError) -> [UInt8] {
            // libwebp wants at least one byte after the header, even for a compressed stream.
            guard chunk.count > 1 else { throw WebP.malformed(.alphaDataSize(available: max(0, chunk.count - 1), needed: 1)) }
            let header = try Header(chunk[0])
            let data = UnsafeRawBufferPointer(rebasing: chunk[1...])
            let count = width &* height
            var plane: [UInt8]
            if header.isCompressed {
                plane = try LosslessBridge.decodeAlphaStream(data, width: width, height: height, limits: limits)
            } else {
                guard data.count >= count else { throw WebP.malformed(.alphaDataSize(available: data.count, needed: count)) }
                plane = Array(UnsafeRawBufferPointer(rebasing: data[0..<count]))
            }
            unfilter(&plane, width: width, height: height, filter: header.filter)
            return plane
        }

        /// Undoes `filter` over the whole plane, row after row.
        static func unfilter(_ plane: inout [UInt8], width: Int, height: Int, filter: AlphaFilter) {
            guard filter != .none, width > 0, plane.count >= width &* height else { return }
            plane.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                // Row y spans [y * width, (y + 1) * width), inside the plane (checked above).
                for y in 0..<height {
                    let row = base + y &* width
                    filter.unfilter(row, above: y == 0 ? nil : UnsafePointer(row - width), width: width)
                }
            }
        }

        /// Writes `plane` (`width * height` values) into the alpha samples of a `width`×`height`
        /// RGBA8 rectangle at byte `origin` of `rgba`, rows `bytesPerRow` apart (inside `rgba`:
        /// the lossy decoder has just written the same rectangle, checked against it).
        static func apply(_ plane: [UInt8], to rgba: UnsafeMutableRawBufferPointer, origin: Int, bytesPerRow: Int,
                          width: Int, height: Int) {
            guard let base = rgba.baseAddress, plane.count >= width &* height, height > 0,
                  origin &+ (height &- 1) &* bytesPerRow &+ width &* 4 <= rgba.count else { return }
            plane.withUnsafeBufferPointer { alpha in
                for y in 0..<height {
                    let row = (base + (origin &+ y &* bytesPerRow)).assumingMemoryBound(to: UInt8.self)
                    let values = y &* width
                    // Row y of the rectangle and of the plane are inside their buffers (checked above).
                    for x in 0..<width { row[x &* 4 &+ 3] = alpha[values &+ x] }
                }
            }
        }

        /// Writes `plane` into the alpha samples of an RGBA8 buffer of the same size.
        static func apply(_ plane: [UInt8], to rgba: inout [UInt8]) {
            let count = min(plane.count, rgba.count / 4)
            plane.withUnsafeBufferPointer { alpha in
                rgba.withUnsafeMutableBufferPointer { pixels in
                    // `i < count` keeps both indices in range: 4 * i + 3 < rgba.count.
                    for i in 0..<count { pixels[i &* 4 &+ 3] = alpha[i] }
                }
            }
        }
    }
}
