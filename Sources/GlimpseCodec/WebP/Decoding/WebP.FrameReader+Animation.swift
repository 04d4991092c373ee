extension WebP.FrameReader {
    /// A chunk header in an animation, checked as libwebp's demuxer checks it
    /// (`ParseVP8XChunks`, `ParseAnimationFrame`, `StoreFrame`).
    mutating func beginAnimationChunk(_ chunk: WebP.ChunkLexer.Chunk) throws(ImageDecodingError) {
        // Every chunk, padded, must lie inside the RIFF payload.
        guard chunk.paddedEnd <= lexer.riffEnd else { throw WebP.malformed(.chunkPastRIFFEnd(tag: chunk.tag.description)) }
        if var frame = pending {
            switch chunk.tag {
            case .alph where frame.alpha == nil:
                guard !frame.hasImage else { throw WebP.malformed(.alphaAfterImage) }
                guard chunk.paddedEnd <= frame.end else { throw WebP.malformed(.framePastChunkEnd) }
                frame.alpha = []
                pending = frame
                try bufferChunk(chunk)
                return
            case .vp8l where frame.alpha != nil && !frame.hasImage:
                throw WebP.malformed(.alphaBeforeLossless)
            case .vp8 where !frame.hasImage, .vp8l where !frame.hasImage:
                guard chunk.paddedEnd <= frame.end else { throw WebP.malformed(.framePastChunkEnd) }
                frame.hasImage = true
                pending = frame
                try bufferChunk(chunk)
                return
            default:
                // Any other chunk ends the frame and is read as a chunk of the animation.
                try closeFrame()
            }
        }
        switch chunk.tag {
        case .vp8x:
            throw WebP.malformed(.secondExtendedHeader)
        case .alph, .vp8, .vp8l:
            throw WebP.malformed(.imageOutsideFrame(tag: chunk.tag.description))
        case .anim:
            let padded = WebP.RIFF.paddedSize(chunk.size)
            guard padded >= WebP.RIFF.animSize else { throw WebP.malformed(.animationHeaderSize(chunk.size)) }
            // Only the first ANIM counts.
            lexer.choose(animation == nil ? .prefix(WebP.RIFF.animSize) : .skip)
        case .anmf:
            guard animation != nil else { throw WebP.malformed(.frameBeforeAnimationHeader) }
            let padded = WebP.RIFF.paddedSize(chunk.size)
            guard padded >= WebP.RIFF.anmfHeaderSize else { throw WebP.malformed(.frameHeaderSize(chunk.size)) }
            try limits.checkFrames(frameCount &+ 1)
            lexer.choose(.header(WebP.RIFF.anmfHeaderSize))
        default:
            chooseMetadata(chunk)
        }
    }

    /// A whole payload in an animation: `ANIM`, an `ANMF` header, or a frame's chunk.
    mutating func endAnimationChunk(_ chunk: WebP.ChunkLexer.Chunk, _ body: WebP.ChunkLexer.Body,
                                    _ input: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageFrame? {
        switch chunk.tag {
        case .anim:
            if animation == nil {
                animation = try lexer.withBody(body, in: input) { (raw) throws(ImageDecodingError) in WebP.AnimationHeader(parsing: raw) }
            }
        case .anmf:
            let header = try lexer.withBody(body, in: input) { (raw) throws(ImageDecodingError) in try WebP.FrameHeader(parsing: raw) }
            pending = PendingFrame(header: header, end: chunk.paddedEnd)
        case .alph:
            let alpha = takeBody(body, input)
            pending?.alpha = alpha
        case .vp8, .vp8l:
            return try withPayload(body, input) { (reader, raw) throws(ImageDecodingError) in try reader.decodeFrame(chunk, raw) }
        default:
            break
        }
        return nil
    }

    /// Ends the frame started by the last `ANMF` header (its chunks are over).
    mutating func closeFrame() throws(ImageDecodingError) {
        guard let frame = pending else { return }
        pending = nil
        // An ANMF with neither ALPH nor an image is dropped by the demuxer; one with only ALPH is an error.
        if frame.alpha != nil && !frame.hasImage { throw WebP.malformed(.frameWithoutImage) }
    }

    /// Decodes a frame's bitstream and draws it onto the canvas.
    mutating func decodeFrame(_ chunk: WebP.ChunkLexer.Chunk, _ payload: UnsafeRawBufferPointer) throws(ImageDecodingError) -> ImageFrame? {
        guard let frame = pending, let extended else { return nil }
        let lossless = chunk.tag == .vp8l
        let info = try WebP.BitstreamInfo(lossless: lossless, prefix: payload, chunkSize: chunk.size)
        // The demuxer places the bitstream's own size at the ANMF offset.
        let rect = WebP.Compositor.Rect(x: frame.header.x, y: frame.header.y, width: info.width, height: info.height)
        guard rect.maxX <= extended.canvasWidth, rect.maxY <= extended.canvasHeight else {
            throw WebP.malformed(.frameOutsideCanvas(x: rect.x, y: rect.y, width: rect.width, height: rect.height))
        }
        try limits.checkDimensions(width: info.width, height: info.height)
        let canvasBytes = extended.canvasWidth &* extended.canvasHeight &* 4
        let alphaPlane = !lossless && frame.alpha != nil ? info.width &* info.height : 0
        try limits.checkBytes(info.width &* info.height &* 4 &+ alphaPlane, alreadyUsed: retainedBytes &+ canvasBytes)
        if compositor == nil {
            compositor = WebP.Compositor(width: extended.canvasWidth, height: extended.canvasHeight)
        }
        let frameOptions = options.leaving(retainedBytes &+ canvasBytes)
        let placement = WebP.Compositor.Placement(
            rect: rect, hasAlpha: info.hasAlpha || (!lossless && frame.alpha != nil),
            blends: frame.header.blends, disposeToBackground: frame.header.disposeToBackground)
        guard var canvas = compositor else { return nil }
        compositor = nil  // keeps the canvas uniquely referenced while drawing
        let blends = canvas.begin(placement)
        if !blends && !lossless {
            // Nothing to blend: the lossy decoder writes the frame straight into the canvas
            // (as WebPAnimDecoder has WebPDecode do), saving a frame buffer and a copy.
            try canvas.withRectangle(rect) { (raw, origin, pitch) throws(ImageDecodingError) in
                try WebP.LossyDecoder.decode(payload, into: raw, origin: origin, bytesPerRow: pitch, limits: frameOptions.limits)
                if let alpha = frame.alpha {
                    let plane = try alpha.withDecodingBytes { (chunk) throws(ImageDecodingError) in
                        try WebP.AlphaPlane.decode(chunk, width: info.width, height: info.height, limits: frameOptions.limits)
                    }
                    WebP.AlphaPlane.apply(plane, to: raw, origin: origin, bytesPerRow: pitch, width: info.width, height: info.height)
                }
            }
        } else {
            let pixels = try Self.decodeBitstream(payload, info: info, alpha: lossless ? nil : frame.alpha, options: frameOptions)
            pixels.withUnsafeBytes { canvas.draw($0, placement, blending: blends) }
        }
        compositor = canvas
        pending?.alpha = nil
        incrementFrames()
        guard let buffer = PixelBuffer(width: extended.canvasWidth, height: extended.canvasHeight, bytes: canvas.canvas) else { return nil }
        return ImageFrame(pixels: buffer, duration: .milliseconds(frame.header.duration))
    }
}
