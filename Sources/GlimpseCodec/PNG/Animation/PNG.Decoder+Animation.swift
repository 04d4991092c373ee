extension PNG.Decoder {
    /// At the first IDAT: the file is an animation when one valid acTL came
    /// before it (APNG §3); the IDAT image is frame 0 when an fcTL preceded it.
    mutating func startAnimation(header: PNG.Header, format: PixelFormat) throws(ImageDecodingError) {
        guard animation.sawControl, !animation.invalid, let control = animation.control else {
            animation.current = nil
            return
        }
        animation.isActive = true
        animation.compositor = PNG.Compositor(width: header.width, height: header.height, format: format)
        info?.format = .apng
        info?.frameCount = control.frameCount
        info?.isAnimated = control.frameCount > 1
        if animation.current != nil { animation.currentHasData = false }
    }

    /// fcTL (APNG §4.2): starts a frame after checking its sequence number and region.
    mutating func frameControl(_ body: [UInt8]) throws(ImageDecodingError) {
        guard let header else { return }
        guard stage == .beforeImageData || animation.isActive, !animation.ignoring else { return }
        if let control = animation.control, animation.framesStarted >= control.frameCount {
            animation.ignoring = true
            return
        }
        let frame = try PNG.FrameControl(parsing: body, canvasWidth: header.width, canvasHeight: header.height)
        guard frame.sequence == animation.nextSequence else { throw .malformed(.png(.sequenceNumber(frame.sequence))) }
        animation.nextSequence &+= 1
        if animation.current != nil && !animation.currentEmitted {
            throw animation.currentHasData ? .malformed(.png(.frameDataIncomplete)) : .malformed(.png(.frameControlWithoutData))
        }
        if stage == .beforeImageData {
            guard frame.x == 0, frame.y == 0, frame.width == header.width, frame.height == header.height else {
                throw .malformed(.png(.defaultFrameNotCanvas))
            }
        }
        animation.framesStarted &+= 1
        try options.limits.checkFrames(animation.framesStarted)
        animation.current = frame
        animation.currentHasData = false
        animation.currentEmitted = false
        guard stage != .beforeImageData else { return }
        let format = outputFormat
        let working = PNG.ScanlineDecoder.workingBytes(header: header, width: frame.width, height: frame.height)
        try options.limits.checkBytes(frame.width &* frame.height, of: format.bytesPerPixel, alreadyUsed: bytesUsed &+ working)
        guard let expander else { return }
        animation.frameDecoder = nil
        animation.frameBuffer = PNG.outputBuffer(width: frame.width, height: frame.height, format: format,
                                                 adviseHugePages: options.adviseHugePages)
        animation.frameDecoder = PNG.ScanlineDecoder(header: header, width: frame.width, height: frame.height,
                                                     expander: expander)
    }

    /// Data of an fdAT chunk: its sequence number, then the frame's zlib stream.
    mutating func frameData(_ piece: UnsafeRawBufferPointer) throws(ImageDecodingError) {
        guard let control = animation.current else { throw .malformed(.png(.frameDataWithoutControl)) }
        var piece = piece
        if animation.sequenceBytes.count < 4 {
            let take = min(4 &- animation.sequenceBytes.count, piece.count)
            animation.sequenceBytes.append(contentsOf: piece[..<take])
            piece = UnsafeRawBufferPointer(rebasing: piece[take...])
            if animation.sequenceBytes.count == 4 {
                let b = animation.sequenceBytes
                let sequence = Int(UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3]))
                guard sequence == animation.nextSequence else { throw .malformed(.png(.sequenceNumber(sequence))) }
                animation.nextSequence &+= 1
            }
        }
        guard !piece.isEmpty else { return }
        guard var decoder = animation.frameDecoder, var pixels = animation.frameBuffer else {
            throw .malformed(.png(.frameDataWithoutControl))
        }
        // Taken out of `self` so the buffers stay uniquely referenced while written.
        animation.frameDecoder = nil
        animation.frameBuffer = nil
        defer {
            animation.frameDecoder = decoder
            animation.frameBuffer = pixels
        }
        animation.currentHasData = true
        try decoder.feed(piece, into: &pixels)
        if decoder.rowsDone && !animation.currentEmitted {
            try emitFrame(pixels, control: control)
        }
    }

    /// Composes a complete frame onto the canvas and records the result.
    mutating func emitFrame(_ pixels: PixelBuffer, control: PNG.FrameControl) throws(ImageDecodingError) {
        guard var compositor = animation.compositor else { return }
        animation.compositor = nil
        defer { animation.compositor = compositor }
        let canvasBytes = compositor.canvas.bytes.count
        bytesUsed = try options.limits.checkBytes(canvasBytes, alreadyUsed: bytesUsed) &+ bytesUsed
        let shown = compositor.draw(pixels, control: control, isFirst: animation.frames.isEmpty)
        animation.frames.append(ImageFrame(pixels: shown, duration: control.duration))
        animation.currentEmitted = true
        if options.firstFrameOnly { status = .complete }
    }
}
