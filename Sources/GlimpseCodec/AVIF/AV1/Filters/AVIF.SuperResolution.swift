extension AVIF {
    /// The upscaling process (§7.16): the horizontal super-resolution upscaler.
    enum SuperResolution {
        /// §7.16: `frame` (FrameWidth wide, decoded at MiCols) upscaled to `upscaledWidth`
        /// (UpscaledWidth) for each plane; the caller applies it when use_superres is 1.
        /// The output planes are exactly the upscaled sizes Round2( UpscaledWidth, subX ) ×
        /// Round2( FrameHeight, subY ).
        static func upscale(_ frame: AV1Frame, frameWidth: Int, upscaledWidth: Int, frameHeight: Int,
                            miCols: Int) -> AV1Frame {
            typealias K = AV1Tables
            var output = AV1Frame(lumaWidth: upscaledWidth, lumaHeight: frameHeight, bitDepth: frame.bitDepth,
                                  subsamplingX: frame.subsamplingX, subsamplingY: frame.subsamplingY,
                                  monochrome: frame.numPlanes == 1)
            for plane in 0..<frame.numPlanes {
                let subX = plane > 0 ? frame.subsamplingX : 0
                let subY = plane > 0 ? frame.subsamplingY : 0
                let downscaledPlaneW = AV1Arithmetic.round2(frameWidth, subX)
                let upscaledPlaneW = AV1Arithmetic.round2(upscaledWidth, subX)
                let planeH = AV1Arithmetic.round2(frameHeight, subY)
                guard upscaledPlaneW > 0 && downscaledPlaneW > 0 else { continue }
                let stepX = ((downscaledPlaneW << K.SUPERRES_SCALE_BITS) + (upscaledPlaneW / 2)) / upscaledPlaneW
                let err = (upscaledPlaneW * stepX) - (downscaledPlaneW << K.SUPERRES_SCALE_BITS)
                var initialSubpelX = (-((upscaledPlaneW - downscaledPlaneW) << (K.SUPERRES_SCALE_BITS - 1))
                    + upscaledPlaneW / 2) / upscaledPlaneW + (1 << (K.SUPERRES_EXTRA_BITS - 1)) - err / 2
                initialSubpelX &= K.SUPERRES_SCALE_MASK
                let miW = miCols >> subX
                let minX = 0
                let maxX = miW * K.MI_SIZE - 1
                let source = frame.planes[plane]
                for y in 0..<planeH {
                    for x in 0..<upscaledPlaneW {
                        let srcX = -(1 << K.SUPERRES_SCALE_BITS) + initialSubpelX + x * stepX
                        let srcXPx = srcX >> K.SUPERRES_SCALE_BITS
                        let srcXSubpel = (srcX & K.SUPERRES_SCALE_MASK) >> K.SUPERRES_EXTRA_BITS
                        let taps = K.Upscale_Filter[srcXSubpel]
                        var sum = 0
                        for k in 0..<K.SUPERRES_FILTER_TAPS {
                            let sampleX = AV1Arithmetic.clip3(minX, maxX, srcXPx + (k - K.SUPERRES_FILTER_OFFSET))
                            sum += source.sample(sampleX, y) * taps[k]
                        }
                        let v = AV1Arithmetic.clip1(AV1Arithmetic.round2(sum, K.FILTER_BITS), frame.bitDepth)
                        output.planes[plane][y: y, x: x] = UInt16(truncatingIfNeeded: v)
                    }
                }
            }
            return output
        }
    }
}
