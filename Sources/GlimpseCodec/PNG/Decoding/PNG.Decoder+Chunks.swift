extension PNG.Decoder {
    /// Largest ancillary chunk buffered for its metadata (iCCP, eXIf); larger
    /// ones are skipped.
    static let maxMetadataChunk = 16 << 20

    mutating func handle(_ event: PNG.ChunkLexer.Event, rows sink: PNG.ScanlineDecoder.RowSink) throws(ImageDecodingError) {
        switch event {
        case .begin(let type, let length):
            try begin(type, length: length)
        case .data(let piece):
            try streamData(piece, rows: sink)
        case .end(let type, let body, let crcValid):
            try end(type, body: body, crcValid: crcValid)
        }
    }

    private mutating func begin(_ type: PNG.ChunkType, length: Int) throws(ImageDecodingError) {
        chunkCount &+= 1
        // PNG §5.6: IHDR first, IEND last, IDAT chunks consecutive, PLTE before IDAT.
        if chunkCount == 1 && type != .IHDR { throw .malformed(.png(.headerNotFirst)) }
        if type != .IDAT && stage == .inImageData { stage = .afterImageData }
        currentType = type
        switch type {
        case .IHDR:
            guard chunkCount == 1 else { throw .malformed(.png(.duplicateHeader)) }
            guard length == 13 else { throw .malformed(.png(.headerLength(length))) }
            lexer.choose(.buffer)
        case .PLTE:
            guard stage == .beforeImageData else { throw .malformed(.png(.paletteAfterImageData)) }
            guard palette == nil else { throw .malformed(.png(.duplicatePalette)) }
            guard length <= 768, length % 3 == 0, length > 0 else {
                if header?.colorType == .indexed { throw .malformed(.png(.paletteLength(length))) }
                lexer.choose(.skip)
                return
            }
            lexer.choose(.buffer)
        case .IDAT:
            guard stage != .afterImageData else { throw .malformed(.png(.imageDataNotConsecutive)) }
            if stage == .beforeImageData {
                try startImageData()
                stage = .inImageData
            }
            lexer.choose(.stream)
        case .IEND:
            // IEND is empty (PNG §11.2.5); a length is never trusted for a buffer.
            lexer.choose(length == 0 ? .buffer : .skip)
        case .fdAT:
            if animation.isActive && !animation.ignoring && stage == .afterImageData {
                guard length >= 4 else { throw .malformed(.png(.frameDataLength(length))) }
                animation.sequenceBytes = []
                lexer.choose(.stream)
            } else {
                lexer.choose(.skip)
            }
        case .tRNS, .acTL, .fcTL, .gAMA, .cHRM, .sRGB, .cICP, .pHYs:
            lexer.choose(length <= 1024 ? .buffer : .skip)
        case .iCCP, .eXIf:
            let fits = length <= Self.maxMetadataChunk
                && (try? options.limits.checkBytes(length, alreadyUsed: bytesUsed)) != nil
            lexer.choose(fits ? .buffer : .skip)
        default:
            if type.isCritical { throw .unsupported(.pngCriticalChunk(type)) }
            lexer.choose(.skip)
        }
    }

    private mutating func end(_ type: PNG.ChunkType, body: [UInt8], crcValid: Bool) throws(ImageDecodingError) {
        guard crcValid else {
            // fdAT is image data already used: its CRC matters like IDAT's.
            if type == .fdAT && animation.isActive { throw .checksumMismatch }
            // libpng's default for ancillary chunks: warn and drop the chunk.
            guard options.mode == .lenient else { throw .checksumMismatch }
            warnings.append(DecodingWarning(.png(.ancillaryChecksum(type))))
            return
        }
        switch type {
        case .IHDR:
            try readHeader(body)
        case .PLTE:
            if header?.colorType != .grayscale && header?.colorType != .grayscaleAlpha { palette = body }
        case .tRNS:
            readTransparency(body)
        case .IEND:
            try endOfImage()
            status = .complete
        case .acTL:
            guard stage == .beforeImageData else { return }
            if animation.sawControl {
                animation.invalid = true
            } else {
                animation.sawControl = true
                animation.control = PNG.AnimationControl(parsing: body)
                if animation.control == nil { animation.invalid = true }
            }
        case .fcTL:
            try frameControl(body)
        case .fdAT:
            if animation.isActive && !animation.ignoring && animation.sequenceBytes.count < 4 {
                throw .malformed(.png(.frameDataLength(animation.sequenceBytes.count)))
            }
        case .gAMA:
            if let value = PNG.Ancillary.gamma(body) { metadata.gamma = value }
        case .cHRM:
            if let value = PNG.Ancillary.chromaticities(body) { metadata.chromaticities = value }
        case .sRGB:
            if let value = PNG.Ancillary.sRGBIntent(body) { metadata.sRGBIntent = value }
        case .cICP:
            if let value = PNG.Ancillary.codePoints(body) { metadata.cicp = value }
        case .pHYs:
            if let value = PNG.Ancillary.density(body) { metadata.density = value }
        case .iCCP:
            let budget = max(0, min(Self.maxMetadataChunk * 4, options.limits.maxTotalBytes &- bytesUsed))
            if metadata.iccProfile == nil, let profile = PNG.Ancillary.iccProfile(body, maxBytes: budget) {
                metadata.iccProfile = profile
            }
        case .eXIf:
            if let value = PNG.Ancillary.orientation(body) { metadata.orientation = value }
        default:
            break
        }
        info?.metadata = metadata
    }

    private mutating func readHeader(_ body: [UInt8]) throws(ImageDecodingError) {
        let header = try body.withDecodingBytes { (raw) throws(ImageDecodingError) in try PNG.Header(parsing: raw) }
        // Limits come before any allocation: a 225 000 × 225 000 header stops here.
        try options.limits.checkDimensions(width: header.width, height: header.height)
        self.header = header
        let working = PNG.ScanlineDecoder.workingBytes(header: header, width: header.width, height: header.height)
        try options.limits.checkBytes(header.width &* header.height, of: outputFormat.bytesPerPixel, alreadyUsed: working)
        info = ImageInfo(format: .png, width: header.width, height: header.height, frameCount: 1, isAnimated: false,
                         bitDepth: header.bitDepth, hasAlpha: header.colorType.hasAlpha, metadata: metadata)
    }

    /// tRNS (PNG §11.3.2.1). Like libpng, a tRNS that does not fit the image
    /// (wrong length, more entries than PLTE, on a type with alpha) is ignored.
    private mutating func readTransparency(_ body: [UInt8]) {
        guard let header, stage == .beforeImageData, transparency == nil else { return }
        switch header.colorType {
        case .grayscale where body.count == 2, .rgb where body.count == 6:
            transparency = body
        case .indexed:
            guard let palette, !body.isEmpty, body.count <= palette.count / 3 else { return }
            transparency = body
        default:
            return
        }
        info?.hasAlpha = true
    }

    private mutating func startImageData() throws(ImageDecodingError) {
        guard let header else { throw .malformed(.png(.imageDataBeforeHeader)) }
        if header.colorType == .indexed && palette == nil { throw .malformed(.png(.missingPalette)) }
        let format = outputFormat
        let working = PNG.ScanlineDecoder.workingBytes(header: header, width: header.width, height: header.height)
        bytesUsed = try options.limits.checkBytes(header.width &* header.height, of: format.bytesPerPixel, alreadyUsed: working)
            &+ working
        let expander = PNG.Expander(header: header, palette: palette, transparency: transparency, wide: format == .rgba16)
        self.expander = expander
        // Rows go to the caller band by band unless the whole image is needed anyway
        // (Adam7 passes fill it in an order of their own; APNG frames are composed on it).
        let animated = animation.sawControl && !animation.invalid && animation.control != nil
        if bandRows > 0 && !header.interlaced && !animated {
            streaming = true
            let rowBytes = max(1, header.width &* format.bytesPerPixel)
            let band = min(header.height, max(1, min(bandRows, PNG.Decoder.bandTargetBytes / rowBytes)))
            image = PNG.outputBuffer(width: header.width, height: band, format: format, adviseHugePages: false)
            scanlines = PNG.ScanlineDecoder(header: header, width: header.width, height: header.height,
                                            expander: expander, bandHeight: band)
        } else {
            image = PNG.outputBuffer(width: header.width, height: header.height, format: format,
                                     adviseHugePages: options.adviseHugePages)
            scanlines = PNG.ScanlineDecoder(header: header, width: header.width, height: header.height,
                                            expander: expander)
        }
        try startAnimation(header: header, format: format)
    }

    private mutating func streamData(_ piece: UnsafeRawBufferPointer, rows sink: PNG.ScanlineDecoder.RowSink) throws(ImageDecodingError) {
        if currentType == .IDAT {
            guard !imageDataClosed, var decoder = scanlines, var pixels = image else { return }
            // Take the buffers out of `self` so they stay uniquely referenced
            // (no copy-on-write) while the decoder writes into them.
            scanlines = nil
            image = nil
            defer {
                scanlines = decoder
                image = pixels
            }
            if animation.current != nil { animation.currentHasData = true }
            do {
                try decoder.feed(piece, into: &pixels, rows: sink)
            } catch {
                try recoverImageData(error, rowsDone: decoder.rowsDone)
            }
            if decoder.rowsDone, animation.isActive, let control = animation.current, !animation.currentEmitted {
                try emitFrame(pixels, control: control)
            }
        } else if currentType == .fdAT {
            try frameData(piece)
        }
    }

    /// Lenient: what libpng does with damaged image data. After the last row
    /// the rest of the stream is only checked (a bad Adler-32 or deflate error
    /// there is a benign error in libpng: a warning); a stream that ends before
    /// the last row leaves the rows decoded so far. Anything else stays an error.
    private mutating func recoverImageData(_ error: ImageDecodingError, rowsDone: Bool) throws(ImageDecodingError) {
        guard options.mode == .lenient else { throw error }
        if rowsDone {
            let defect: PNG.Defect = error == .checksumMismatch ? .imageDataChecksum : .deflateData
            warnings.append(DecodingWarning(.png(defect)))
        } else if error != .truncated {
            throw error
        }
        imageDataClosed = true
    }

    private mutating func endOfImage() throws(ImageDecodingError) {
        guard let scanlines else { throw .malformed(.png(.missingImageData)) }
        // Lenient: IDAT chunks that end before the last row leave the rows so far (see `result()`).
        guard scanlines.rowsDone || (options.mode == .lenient && !animation.isActive) else { throw .truncated }
        // Every row, but the zlib stream never reached its end and Adler-32: libpng's
        // "Not enough image data". Lenient, the image is whole and this only warns.
        if scanlines.rowsDone && !scanlines.streamEnded && !imageDataClosed {
            guard options.mode == .lenient else { throw .truncated }
            warnings.append(DecodingWarning(.png(.unterminatedImageData)))
        }
        guard animation.isActive, let control = animation.control else { return }
        if animation.current != nil && !animation.currentEmitted {
            throw animation.currentHasData ? .truncated : .malformed(.png(.frameControlWithoutData))
        }
        if animation.frames.count < control.frameCount {
            throw .malformed(.png(.frameCount(declared: control.frameCount, found: animation.frames.count)))
        }
    }
}
