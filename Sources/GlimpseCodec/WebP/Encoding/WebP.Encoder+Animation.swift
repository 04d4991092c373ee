extension WebP.Encoder {
    /// Every frame of `image` (full canvases, as decoders hand them out) as an
    /// `ANMF` frame holding the rectangle that differs from the canvas before,
    /// its origin moved to even coordinates as `ANMF` requires, drawn without
    /// blending and never disposed: composing gives back each canvas exactly.
    func encodeAnimation(_ image: Image, container: WebP.ContainerWriter) throws(EncodingError) -> [UInt8] {
        let width = image.width, height = image.height
        var frames: [WebP.ContainerWriter.Frame] = []
        var previous: PixelBuffer? = nil
        var hasAlpha = false
        for frame in image.frames {
            guard frame.pixels.width == width, frame.pixels.height == height else {
                throw .invalidImage("frames of different sizes")
            }
            let pixels = frame.pixels.converted(to: .rgba8)
            if Self.hasAlpha(pixels.bytes) { hasAlpha = true }
            var rect = (x: 0, y: 0, width: width, height: height)
            if let previous { rect = Self.changedRectangle(previous, pixels) }
            var region = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
            for row in 0..<rect.height {
                let source = ((rect.y + row) * width + rect.x) * 4
                region.replaceSubrange(row * rect.width * 4..<(row + 1) * rect.width * 4,
                                       with: pixels.bytes[source..<source + rect.width * 4])
            }
            let bitstream = WebP.LosslessEncoder.encode(rgba: region, width: rect.width, height: rect.height,
                                                        effort: options.effort, exact: true)
            let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
            let milliseconds = frame.duration.components.seconds * 1000
                + frame.duration.components.attoseconds / attosecondsPerMillisecond
            frames.append(WebP.ContainerWriter.Frame(x: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                                     duration: Int(milliseconds), blends: false, disposesToBackground: false,
                                                     bitstream: bitstream))
            previous = pixels
        }
        return container.animation(frames, width: width, height: height, loopCount: image.loopCount, hasAlpha: hasAlpha)
    }

    /// The smallest rectangle with an even origin covering every pixel that
    /// differs between the two canvases (one pixel when nothing does).
    static func changedRectangle(_ before: PixelBuffer, _ after: PixelBuffer) -> (x: Int, y: Int, width: Int, height: Int) {
        let width = after.width, height = after.height
        var minX = width, minY = height, maxX = -1, maxY = -1
        before.bytes.withUnsafeBytes { old in
            after.bytes.withUnsafeBytes { new in
                for y in 0..<height {
                    for x in 0..<width {
                        let offset = (y * width + x) * 4
                        // Safe: both canvases hold width × height RGBA8 pixels.
                        if old.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                            != new.loadUnaligned(fromByteOffset: offset, as: UInt32.self) {
                            minX = min(minX, x); maxX = max(maxX, x)
                            minY = min(minY, y); maxY = max(maxY, y)
                        }
                    }
                }
            }
        }
        guard maxX >= 0 else { return (0, 0, 1, 1) }
        minX &= ~1
        minY &= ~1
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
