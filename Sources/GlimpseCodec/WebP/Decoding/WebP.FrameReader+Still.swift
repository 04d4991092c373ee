extension WebP.FrameReader {
    /// Reads a still image's bitstream header (from the first bytes of its chunk) and
    /// checks it against the canvas and the limits, before any pixel memory exists.
    func checkedStillHeader(_ chunk: WebP.ChunkLexer.Chunk, _ prefix: UnsafeRawBufferPointer) throws(ImageDecodingError) -> WebP.BitstreamInfo {
        let info = try WebP.BitstreamInfo(lossless: chunk.tag == .vp8l, prefix: prefix, chunkSize: chunk.size)
        if let extended, extended.canvasWidth != info.width || extended.canvasHeight != info.height {
            throw WebP.malformed(.sizeMismatch(canvasWidth: extended.canvasWidth, canvasHeight: extended.canvasHeight,
                                               width: info.width, height: info.height))
        }
        try limits.checkDimensions(width: info.width, height: info.height)
        // The output, and the alpha plane of a lossy image with `ALPH`.
        let alphaPlane = !info.isLossless && stillAlpha != nil ? info.width &* info.height : 0
        try limits.checkBytes(info.width &* info.height, of: 4, alreadyUsed: retainedBytes &+ alphaPlane)
        return info
    }

    /// Decodes the still image from its whole chunk payload.
    mutating func decodeStill(_ chunk: WebP.ChunkLexer.Chunk, _ payload: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageFrame {
        if still == nil { still = try checkedStillHeader(chunk, payload) }
        guard let info = still else { throw WebP.malformed(.missingImage) }
        let rgba = try Self.decodeBitstream(payload, info: info, alpha: stillAlpha, options: options.leaving(retainedBytes))
        guard let pixels = PixelBuffer(width: info.width, height: info.height, bytes: rgba) else {
            throw WebP.malformed(.missingImage)
        }
        return ImageFrame(pixels: pixels)
    }

    /// More of a lossy still's chunk has arrived (its first `prefix.count` bytes): decodes
    /// the macroblock rows it completes.
    mutating func advanceStill(_ chunk: WebP.ChunkLexer.Chunk, _ body: WebP.ChunkLexer.Body,
                               _ input: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        guard case .stillChunks = phase, chunk.tag == .vp8, let info = still, !info.isLossless else { return }
        var stream = lossyStream ?? WebP.LossyStream(width: info.width, height: info.height, payloadSize: chunk.size,
                                                     alpha: stillAlpha, options: options.leaving(retainedBytes))
        lossyStream = nil  // keeps the stream's buffers uniquely referenced while it decodes
        _ = try lexer.withBody(body, in: input) { (raw) throws(ImageDecodingError) in try stream.advance(raw) }
        lossyStream = stream
    }

    /// The whole chunk of a lossy still whose first pieces ``advanceStill(_:_:_:)`` decoded.
    mutating func finishStill(_ chunk: WebP.ChunkLexer.Chunk, _ payload: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageFrame {
        guard var stream = lossyStream, let info = still else { throw WebP.malformed(.missingImage) }
        lossyStream = nil
        guard try stream.advance(payload),
              let pixels = PixelBuffer(width: info.width, height: info.height, bytes: stream.pixels) else {
            throw WebP.malformed(.missingImage)
        }
        return ImageFrame(pixels: pixels)
    }

    /// The rows of a lossy still decoded so far (transparent black below), while its chunk arrives.
    var partialStill: ImageFrame? {
        guard let stream = lossyStream, let info = still, let bytes = stream.rowsSoFar(),
              let pixels = PixelBuffer(width: info.width, height: info.height, bytes: bytes) else { return nil }
        return ImageFrame(pixels: pixels, isComplete: false)
    }

    /// Decodes one `VP8 ` or `VP8L` payload (`options` carry the budget left for it) into straight RGBA8, with the alpha of the
    /// `ALPH` payload `alpha` for a lossy one (a lossless bitstream carries its own and
    /// libwebp ignores `ALPH` next to it).
    static func decodeBitstream(_ payload: UnsafeRawBufferPointer, info: WebP.BitstreamInfo, alpha: [UInt8]?,
                                options: DecodingOptions) throws(ImageDecodingError) -> [UInt8] {
        if info.isLossless {
            return try WebP.LosslessBridge.decode(payload, info: info, options: options)
        }
        var rgba = PixelStorage.uninitializedBytes(count: info.width &* info.height &* 4, adviseHugePages: options.adviseHugePages)
        try WebP.LossyBridge.decode(payload, info: info, into: &rgba, options: options)
        if let alpha {
            let plane = try alpha.withDecodingBytes { (raw) throws(ImageDecodingError) in
                try WebP.AlphaPlane.decode(raw, width: info.width, height: info.height, limits: options.limits)
            }
            WebP.AlphaPlane.apply(plane, to: &rgba)
        }
        return rgba
    }
}

extension DecodingOptions {
    /// These options with `used` bytes of the byte budget already spent (frames kept, the
    /// canvas), so that the bitstream decoders' own checks see what is left.
    func leaving(_ used: Int) -> DecodingOptions {
        var copy = self
        copy.limits.maxTotalBytes = max(0, limits.maxTotalBytes &- used)
        return copy
    }
}
