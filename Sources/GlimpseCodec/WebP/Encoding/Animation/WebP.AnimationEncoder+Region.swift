extension WebP.AnimationEncoder {
    /// One frame's rectangle encoded, and the pixels a decoder will get from it.
    struct EncodedRegion {
        /// The `VP8L` or `VP8 ` payload.
        var bitstream: [UInt8]
        /// The `ALPH` payload of a lossy frame with transparency.
        var alpha: [UInt8]?
        var isLossy: Bool
        /// Some pixel is not opaque (the `VP8L` alpha hint, or an `ALPH` chunk).
        var hasAlpha: Bool
        /// What a decoder gets: the pixels themselves for a lossless frame, the
        /// reconstruction (with the alpha as the `ALPH` chunk holds it) for a lossy one. RGBA8, rows packed.
        var decoded: [UInt8]
    }

    /// `region` (RGBA8 of `rect`'s size) as a lossless or lossy frame, as the options say.
    func encode(_ region: [UInt8], rect: WebP.Compositor.Rect) throws(WebP.Encoder.EncodingError) -> EncodedRegion {
        let hasAlpha = WebP.Encoder.hasAlpha(region)
        if options.lossless {
            // Exact: the caller already zeroed hidden colour when the options allow it, and the
            // decoder model must see what the file holds.
            let bitstream = WebP.LosslessEncoder.encode(rgba: region, width: rect.width, height: rect.height,
                                                        effort: options.effort, exact: true)
            return EncodedRegion(bitstream: bitstream, alpha: nil, isLossy: false, hasAlpha: hasAlpha, decoded: region)
        }
        let settings = WebP.LossyEncoder.Settings(quality: options.quality, method: options.method)
        let encoded: (bitstream: [UInt8], reconstruction: WebP.LossyReconstruction)
        do {
            encoded = try WebP.LossyEncoder.encode(rgba: region, width: rect.width, height: rect.height, settings: settings)
        } catch {
            throw .unsupportedSize(width: rect.width, height: rect.height)
        }
        var decoded = encoded.reconstruction.rgba()
        var alpha: [UInt8]? = nil
        if hasAlpha {
            let encodedAlpha = WebP.AlphaEncoder.encode(rgba: region, width: rect.width, height: rect.height,
                                                        effort: options.effort, quality: options.alphaQuality)
            alpha = encodedAlpha.payload
            for (pixel, value) in encodedAlpha.plane.enumerated() { decoded[pixel * 4 + 3] = value }
        } else {
            var index = 3
            while index < decoded.count {
                decoded[index] = 255
                index += 4
            }
        }
        return EncodedRegion(bitstream: encoded.bitstream, alpha: alpha, isLossy: true, hasAlpha: hasAlpha, decoded: decoded)
    }
}
