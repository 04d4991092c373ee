extension PNG {
    /// An incremental PNG and APNG decoder (PNG Third Edition, APNG 1.0),
    /// following the ``ImageDecoder`` contract.
    ///
    /// - Every colour type and bit depth, PLTE, tRNS, the five filters, Adam7,
    ///   image data split over any number of IDAT chunks.
    /// - Output: RGBA8, or RGBA16 for 16-bit sources when
    ///   ``DecodingOptions/sampleDepth`` is `.preserve`. Samples are returned as
    ///   stored (no gamma correction); 16-bit samples reduced to 8 bits keep
    ///   their high byte, as libpng's `png_set_strip_16` does.
    /// - Checks: signature, CRC of every chunk (a bad CRC on a critical chunk is
    ///   ``ImageDecodingError/checksumMismatch``), IHDR values, chunk order, zlib
    ///   integrity (Adler-32). Data after the last row is ignored.
    /// - Damage, in ``DecodingOptions/Mode/lenient`` mode (libpng's defaults, as
    ///   browsers show it), each with a ``DecodingWarning``: an ancillary chunk
    ///   with a bad CRC is dropped; image data that stops early (the file ends, the
    ///   IDAT chunks or the zlib stream end) gives the rows decoded so far and
    ///   transparent black (0, 0, 0, 0) below them, or for Adam7 the passes
    ///   completed so far expanded as ``partialImage()`` expands them; a bad
    ///   Adler-32 or damaged zlib data after the last row, or a missing IEND, only
    ///   warn. In ``DecodingOptions/Mode/strict`` mode each of these is an error
    ///   (``ImageDecodingError/truncated`` for data that stops early).
    /// - Incremental: ``info`` after IHDR; rows as they are inflated; for Adam7
    ///   a preview after each pass; for APNG each frame once it is complete.
    /// - APNG: frames are the composed canvas (see ``Compositor``). Where
    ///   browsers show the default image for a broken animation (two acTL
    ///   chunks, a frame count of 0 or above 2^31 − 1), so does this decoder;
    ///   broken frame data or sequence numbers are errors. Frames beyond the
    ///   count acTL declares are ignored.
    public struct Decoder: ImageDecoder {
        public static var format: ImageFormat { .png }

        let options: DecodingOptions
        var lexer = ChunkLexer()
        var failure: ImageDecodingError?
        var status = DecodingStatus.needMoreData
        var header: Header?
        var palette: [UInt8]?
        var transparency: [UInt8]?
        var metadata = ImageMetadata()
        public internal(set) var info: ImageInfo?
        var chunkCount = 0
        var currentType = ChunkType(0)
        var stage = Stage.beforeImageData
        /// The IDAT image (the default image; frame 0 when an fcTL precedes it).
        var image: PixelBuffer?
        var scanlines: ScanlineDecoder?
        var expander: Expander?
        var animation = AnimationState()
        /// Bytes of output and working memory allocated so far, for the limits.
        var bytesUsed = 0
        /// What a lenient decode recovered from so far, in the order met.
        var warnings: [DecodingWarning] = []
        /// Lenient only: the IDAT image takes no more data (its zlib stream ended
        /// early, or failed after the last row); later IDAT bytes are ignored.
        var imageDataClosed = false

        enum Stage: Sendable {
            case beforeImageData, inImageData, afterImageData
        }

        public init(options: DecodingOptions) {
            self.options = options
        }

        /// Output pixel format for the current header.
        var outputFormat: PixelFormat {
            header?.bitDepth == 16 && options.sampleDepth == .preserve ? .rgba16 : .rgba8
        }

        /// Rows per band when the image is handed over in bands (``RowDecoder``); 0: whole image.
        var bandRows = 0
        /// The IDAT image is decoded into a band, not kept whole.
        var streaming = false
        /// Bytes a band aims at: rows stay in cache between the decoder and their consumer.
        static let bandTargetBytes = 1 << 18

        public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
            try append(bytes) { _ in }
        }

        /// ``append(_:)`` that hands the rows of a streamed image to `sink` as bands fill.
        mutating func append(_ bytes: UnsafeRawBufferPointer, rows sink: PNG.ScanlineDecoder.RowSink) throws(ImageDecodingError)
            -> DecodingStatus {
            if let failure { throw failure }
            if status == .complete { return .complete }
            var input = bytes
            do throws(ImageDecodingError) {
                while status != .complete, let event = try lexer.next(&input) {
                    try handle(event, rows: sink)
                }
            } catch {
                failure = error
                throw error
            }
            return status
        }

        public func partialImage() -> Image? {
            if animation.isActive {
                if !animation.frames.isEmpty {
                    return Image(frames: animation.frames, loopCount: animation.control?.playCount ?? 0,
                                 format: .apng, metadata: metadata, warnings: warnings)
                }
                return nil
            }
            guard let image, let scanlines else { return nil }
            let complete = scanlines.rowsDone
            if !complete {
                let shown = header?.interlaced == true ? scanlines.completedPasses : scanlines.rowsDecoded
                guard shown > 0 else { return nil }
            }
            let pixels = complete ? image : Self.rowsSoFar(image, scanlines: scanlines, interlaced: header?.interlaced == true)
            return Image(frames: [ImageFrame(pixels: pixels, isComplete: complete)], format: .png, metadata: metadata,
                         warnings: warnings)
        }

        /// What an unfinished image shows: for Adam7 the completed passes, each
        /// pixel repeated over the block the pass stands for; otherwise the rows
        /// decoded so far over transparent black. Rows not decoded yet were never
        /// written (see `PNG.outputBuffer`), so they are cleared here.
        static func rowsSoFar(_ image: PixelBuffer, scanlines: ScanlineDecoder, interlaced: Bool) -> PixelBuffer {
            var pixels = image
            if interlaced {
                guard scanlines.completedPasses > 0 else {
                    return PixelBuffer(width: image.width, height: image.height, format: image.format)
                }
                return Interlace.preview(image, completedPasses: scanlines.completedPasses)
            }
            let start = scanlines.rowsDecoded &* pixels.bytesPerRow
            pixels.bytes.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress, start <= raw.count else { return }
                (base + start).initializeMemory(as: UInt8.self, repeating: 0, count: raw.count &- start)
            }
            return pixels
        }

        public mutating func finish() throws(ImageDecodingError) -> Image {
            if let failure { throw failure }
            do throws(ImageDecodingError) {
                return try result()
            } catch {
                failure = error
                throw error
            }
        }

        private func result() throws(ImageDecodingError) -> Image {
            guard header != nil, let scanlines, let image else { throw .truncated }
            let lenient = options.mode == .lenient
            var warnings = self.warnings
            if animation.isActive {
                let wanted = options.firstFrameOnly ? 1 : (animation.control?.frameCount ?? 0)
                var frames = animation.frames
                if frames.count < wanted || frames.isEmpty {
                    guard status != .complete, lenient, !frames.isEmpty else {
                        throw status == .complete ? .malformed(.png(.frameCount(declared: wanted, found: frames.count))) : .truncated
                    }
                    warnings.append(DecodingWarning(.png(.imageDataEnded)))
                } else if status != .complete && lenient {
                    warnings.append(DecodingWarning(.png(.missingEnd)))
                }
                frames = Array(frames.prefix(wanted))
                return Image(frames: frames, loopCount: animation.control?.playCount ?? 0,
                             format: .apng, metadata: metadata, warnings: warnings)
            }
            if scanlines.rowsDone && status == .complete {
                return Image(pixels: image, format: .png, metadata: metadata, warnings: warnings)
            }
            // Strict: a file must reach IEND (libpng's crashers end inside a huge
            // chunk right after complete image data; they must fail).
            guard lenient else { throw .truncated }
            if scanlines.rowsDone {
                warnings.append(DecodingWarning(.png(.missingEnd)))
                return Image(pixels: image, format: .png, metadata: metadata, warnings: warnings)
            }
            warnings.append(DecodingWarning(.png(.imageDataEnded)))
            let pixels = Self.rowsSoFar(image, scanlines: scanlines, interlaced: header?.interlaced == true)
            return Image(frames: [ImageFrame(pixels: pixels, isComplete: false)], format: .png, metadata: metadata,
                         warnings: warnings)
        }
    }
}
