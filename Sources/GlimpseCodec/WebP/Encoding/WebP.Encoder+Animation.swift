extension WebP.Encoder {
    /// Every frame of `image` (full canvases, as decoders hand them out) as an `ANMF`
    /// frame chosen by ``WebP/AnimationEncoder``; durations rounded to the millisecond.
    func encodeAnimation(_ image: Image, container: WebP.ContainerWriter) throws(EncodingError) -> [UInt8] {
        let width = image.width, height = image.height
        if !options.lossless, width > WebP.LossyEncoder.maxDimension || height > WebP.LossyEncoder.maxDimension {
            throw .unsupportedSize(width: width, height: height)
        }
        var animation = WebP.AnimationEncoder(width: width, height: height, options: options)
        for frame in image.frames {
            guard frame.pixels.width == width, frame.pixels.height == height else {
                throw .invalidImage("frames of different sizes")
            }
            var canvas = frame.pixels.converted(to: .rgba8).bytes
            if !options.exact { Self.clearHiddenColor(&canvas) }
            try animation.add(canvas, duration: Self.milliseconds(frame.duration))
        }
        return container.animation(animation.frames, width: width, height: height, loopCount: image.loopCount,
                                   hasAlpha: animation.hasAlpha)
    }

    /// `duration` to the nearest millisecond, within what `ANMF` holds (24 bits).
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        guard seconds < 0xff_ffff / 1000 + 1 else { return 0xff_ffff }
        let milliseconds = seconds * 1000 + (attoseconds + attosecondsPerMillisecond / 2) / attosecondsPerMillisecond
        return Int(min(max(milliseconds, 0), 0xff_ffff))
    }

    /// Makes every fully transparent pixel transparent black (its colour is invisible).
    static func clearHiddenColor(_ rgba: inout [UInt8]) {
        var index = 0
        while index + 3 < rgba.count {
            if rgba[index + 3] == 0 { rgba[index] = 0; rgba[index + 1] = 0; rgba[index + 2] = 0 }
            index += 4
        }
    }
}
