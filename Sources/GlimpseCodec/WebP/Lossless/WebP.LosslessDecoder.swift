extension WebP {
    /// Decodes VP8L lossless bitstreams (RFC 9649), pixel for pixel as libwebp's
    /// `WebPDecodeRGBA` does, and rejecting the streams libwebp rejects.
    ///
    /// The container calls it three ways:
    /// - ``readHeader(_:)``: the 5-byte header of a `VP8L` chunk (signature 0x2f,
    ///   14-bit width − 1 and height − 1, alpha hint, 3-bit version 0; RFC 9649
    ///   §3.1, §3.2), for `info` without touching pixel memory;
    /// - ``decode(_:into:limits:)`` / ``decode(_:limits:)``: a whole `VP8L` chunk
    ///   payload into straight (not premultiplied) RGBA8, either into a
    ///   caller-owned buffer of exactly `width * height * 4` bytes or a new
    ///   ``PixelBuffer``;
    /// - ``decodeAlpha(_:width:height:into:limits:)``: the headerless image stream
    ///   of an `ALPH` chunk with compression method 1 (WebP container spec,
    ///   "Alpha"), whose green channel is the alpha plane, one byte per pixel.
    ///
    /// `bytes` may run past the stream's end (libwebp hands its VP8L decoder the
    /// rest of the file): only how many bits are available matters, which decides
    /// whether a stream that reads past its last byte is rejected. A stream that
    /// needs more bits than `bytes` holds throws ``ImageDecodingError/truncated``.
    ///
    /// ``DecodingLimits`` are checked from the header, before any allocation:
    /// dimensions, then the output and the decoder's working memory (the coded
    /// pixels, one `UInt32` each, and the transforms' sub-images) together
    /// against `maxTotalBytes`.
    enum LosslessDecoder {
        /// The VP8L header: what `info` reports.
        struct Header: Sendable, Hashable {
            var width: Int
            var height: Int
            /// The encoder's hint that some alpha is not 255. Decoding ignores it
            /// (libwebp outputs the decoded alpha whatever the hint says).
            var hasAlpha: Bool
        }

        /// First byte of every VP8L stream.
        static let signature: UInt8 = 0x2f
        /// Bytes of the header.
        static let headerSize = 5

        /// Parses the 5-byte VP8L header (RFC 9649 §3.1, §3.2).
        static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> Header {
            do throws(LosslessDefect) {
                var reader = LosslessBitReader(bytes)
                return try readHeader(&reader, count: bytes.count)
            } catch {
                throw error.decodingError
            }
        }

        /// Parses the 5-byte VP8L header from `bytes`.
        static func readHeader(_ bytes: ArraySlice<UInt8>) throws(ImageDecodingError) -> Header {
            try withBytes(bytes) { (raw) throws(ImageDecodingError) in try readHeader(raw) }
        }

        private static func readHeader(_ reader: inout LosslessBitReader, count: Int) throws(LosslessDefect) -> Header {
            guard count >= headerSize else { throw .endOfData }
            let magic = UInt8(reader.read(8))
            guard magic == signature else { throw .badSignature(magic) }
            let width = reader.readInt(14) + 1
            let height = reader.readInt(14) + 1
            let hasAlpha = reader.read(1) == 1
            let version = reader.readInt(3)
            guard version == 0 else { throw .badVersion(version) }
            return Header(width: width, height: height, hasAlpha: hasAlpha)
        }

        /// Decodes a `VP8L` chunk payload into `output`, which must hold exactly
        /// `width * height * 4` bytes (read them first with ``readHeader(_:)``):
        /// RGBA8, rows top to bottom without padding.
        @discardableResult
        static func decode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                           limits: DecodingLimits) throws(ImageDecodingError) -> Header {
            do throws(LosslessDefect) {
                var reader = LosslessBitReader(bytes)
                let header = try readHeader(&reader, count: bytes.count)
                try checkDimensions(header.width, header.height, limits: limits)
                let expected = header.width * header.height * 4
                guard output.count == expected else { throw .outputSize(expected: expected, actual: output.count) }
                guard let base = output.baseAddress else { return header }
                let rowBytes = header.width * 4
                let sink = { (y: Int, row: UnsafePointer<UInt32>, addsGreen: Bool) in
                    // Safe: y < height, so the row's rowBytes lie inside output. The row may be
                    // the coded row occupying the same words (no transforms to undo): each
                    // pixel is read before its own 4 bytes are written.
                    if addsGreen {
                        storeRGBAAddingGreen(row, count: header.width, into: base + y * rowBytes)
                    } else {
                        storeRGBA(row, count: header.width, into: base + y * rowBytes)
                    }
                }
                // The coded pixels are decoded into the output itself (see decodeRows), which
                // needs it aligned for UInt32; any buffer from the allocator is.
                guard Int(bitPattern: base) & (MemoryLayout<UInt32>.alignment - 1) == 0 else {
                    try decodeRows(reader: reader, width: header.width, height: header.height,
                                   limits: limits, outputBytes: expected, storage: nil, sink: sink)
                    return header
                }
                let words = base.bindMemory(to: UInt32.self, capacity: header.width * header.height)
                try decodeRows(reader: reader, width: header.width, height: header.height, limits: limits,
                               outputBytes: expected,
                               storage: UnsafeMutableBufferPointer(start: words, count: header.width * header.height),
                               sink: sink)
                // The caller reads the output as bytes again.
                base.bindMemory(to: UInt8.self, capacity: expected)
                return header
            } catch {
                throw error.decodingError
            }
        }

        /// Decodes a `VP8L` chunk payload into a new RGBA8 buffer.
        static func decode(_ bytes: ArraySlice<UInt8>, limits: DecodingLimits) throws(ImageDecodingError) -> PixelBuffer {
            try withBytes(bytes) { (raw) throws(ImageDecodingError) in
                let header = try readHeader(raw)
                try limits.checkDimensions(width: header.width, height: header.height)
                var buffer = PixelBuffer(width: header.width, height: header.height, format: .rgba8)
                let result: Result<Void, ImageDecodingError> = buffer.bytes.withUnsafeMutableBytes { output in
                    do throws(ImageDecodingError) {
                        try decode(raw, into: output, limits: limits)
                        return .success(())
                    } catch { return .failure(error) }
                }
                try result.get()
                return buffer
            }
        }

        /// Decodes the headerless VP8L image stream of an `ALPH` chunk (compression
        /// method 1) of `width` × `height` pixels and writes its green channel,
        /// the alpha values, to `output` (`width * height` bytes).
        static func decodeAlpha(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int,
                                into output: UnsafeMutableRawBufferPointer,
                                limits: DecodingLimits) throws(ImageDecodingError) {
            do throws(LosslessDefect) {
                guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
                try checkDimensions(width, height, limits: limits)
                let expected = width * height
                guard output.count == expected else { throw .outputSize(expected: expected, actual: output.count) }
                guard let base = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
                var stream = LosslessStreamDecoder(reader: LosslessBitReader(bytes), limits: limits, reservedBytes: 0)
                try stream.reserve(expected, of: 1)
                try stream.reserve(LosslessRowPipeline.scratchBytes(width: width), of: 1)
                var pipeline: LosslessRowPipeline?
                var palette: AlphaPalette?
                var rowsDone = 0
                try stream.decodeMainImage(width: width, height: height, storage: nil) {
                    (transforms, codedWidth) throws(LosslessDefect) in
                    // What encoders write for alpha: colour indexing alone. Its palette's green
                    // bytes map the coded indices straight to alpha, without ARGB rows.
                    if transforms.count == 1, transforms[0].kind == .colorIndexing {
                        palette = AlphaPalette(transforms[0])
                    } else {
                        pipeline = LosslessRowPipeline(transforms: transforms, codedWidth: codedWidth, width: width)
                    }
                } onRows: { coded, rows, _ in
                    if let palette {
                        for y in rowsDone..<rows {
                            // Safe: y < height; coded row y and output row y are inside their images.
                            palette.map(coded + y &* palette.codedWidth, into: base + y &* width, width: width)
                        }
                        rowsDone = rows
                        return
                    }
                    pipeline?.process(upTo: rows, coded: coded) { y, row in
                        // Subtract green leaves green, the alpha value, unchanged.
                        let target = base + y * width
                        for x in 0..<width {
                            // Safe: y < height and x < width index inside output's width * height bytes.
                            target[x] = UInt8(truncatingIfNeeded: row[x] >> 8)
                        }
                    }
                }
            } catch {
                throw error.decodingError
            }
        }

        private static func checkDimensions(_ width: Int, _ height: Int,
                                            limits: DecodingLimits) throws(LosslessDefect) {
            do {
                try limits.checkDimensions(width: width, height: height)
            } catch {
                if case .limitExceeded(let limit) = error { throw .limitExceeded(limit) }
                throw .limitExceeded(.pixelsPerFrame)
            }
        }

        /// Entropy-decodes the main image stream and undoes its transforms row by
        /// row, handing each ARGB row (`width` pixels) to `sink`, with whether green
        /// is still to be added to red and blue (the subtract-green transform, done
        /// last, fused into the sink's store).
        ///
        /// With `storage` (the output, `width * height` words) the coded pixels are
        /// decoded into its tail and a row is transformed only once no backward
        /// reference can still read it: the sink's row `y` covers only coded rows up to
        /// `y` (the coded image is at most as wide and ends where the output ends), so
        /// the output is the only image-sized buffer, as with libwebp's caller-owned
        /// output, except that libwebp keeps its ARGB image besides.
        private static func decodeRows(reader: LosslessBitReader, width: Int, height: Int,
                                       limits: DecodingLimits, outputBytes: Int,
                                       storage: UnsafeMutableBufferPointer<UInt32>?,
                                       sink: (Int, UnsafePointer<UInt32>, Bool) -> Void) throws(LosslessDefect) {
            var stream = LosslessStreamDecoder(reader: reader, limits: limits, reservedBytes: 0)
            try stream.reserve(outputBytes, of: 1)
            try stream.reserve(LosslessRowPipeline.scratchBytes(width: width), of: 1)
            var pipeline: LosslessRowPipeline?
            let inPlace = storage != nil
            try stream.decodeMainImage(width: width, height: height, storage: storage) {
                (transforms, codedWidth) throws(LosslessDefect) in
                pipeline = LosslessRowPipeline(transforms: transforms, codedWidth: codedWidth, width: width)
            } onRows: { coded, rows, retired in
                guard let addsGreen = pipeline?.leavesSubtractGreen else { return }
                pipeline?.process(upTo: inPlace ? retired : rows, coded: coded) { y, row in sink(y, row, addsGreen) }
            }
        }

        /// One row of ARGB words → RGBA bytes.
        @inline(__always)
        private static func storeRGBA(_ argb: UnsafePointer<UInt32>, count: Int, into target: UnsafeMutableRawPointer) {
            for index in 0..<count {
                let pixel = argb[index]
                let rgba = ((pixel >> 16) & 0xff) | (pixel & 0xff00_ff00) | ((pixel & 0xff) << 16)
                // Safe: the caller's row holds 4 bytes per pixel.
                (target + index &* 4).storeBytes(of: rgba.littleEndian, as: UInt32.self)
            }
        }

        /// One row of ARGB words, green not yet added to red and blue → RGBA bytes.
        @inline(__always)
        private static func storeRGBAAddingGreen(_ argb: UnsafePointer<UInt32>, count: Int,
                                                 into target: UnsafeMutableRawPointer) {
            for index in 0..<count {
                let pixel = argb[index]
                let green = (pixel >> 8) & 0xff
                let redBlue = ((pixel & 0x00ff_00ff) &+ (green << 16 | green)) & 0x00ff_00ff
                let rgba = (redBlue >> 16) | (pixel & 0xff00_ff00) | ((redBlue & 0xff) << 16)
                // Safe: the caller's row holds 4 bytes per pixel.
                (target + index &* 4).storeBytes(of: rgba.littleEndian, as: UInt32.self)
            }
        }

        private static func withBytes<R>(_ bytes: ArraySlice<UInt8>,
                                         _ body: (UnsafeRawBufferPointer) throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
            let result: Result<R, ImageDecodingError> = bytes.withUnsafeBytes { raw in
                do throws(ImageDecodingError) { return .success(try body(raw)) } catch { return .failure(error) }
            }
            return try result.get()
        }
    }
}
