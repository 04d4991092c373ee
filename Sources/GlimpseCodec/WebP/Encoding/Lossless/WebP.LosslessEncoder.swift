extension WebP {
    /// Encodes RGBA8 pixels as a VP8L bitstream (RFC 9649 §3–§5), the payload of
    /// a `VP8L` chunk. The output decodes to exactly the input pixels.
    ///
    /// Images of at most 256 colours are palette-coded (colour indexing with
    /// bundling); others go through subtract-green, the predictor and the colour
    /// transform. The remaining image is LZ77-coded with a colour cache and
    /// prefix codes, several groups of them at higher efforts.
    enum LosslessEncoder {
        /// The largest width or height a VP8L header can state (14 bits).
        static let maxDimension = 16384

        /// `pixels` (RGBA8, `width × height`, both 1…16384) as a VP8L payload.
        /// With `exact` false the colour of fully transparent pixels is zeroed
        /// first (it is invisible and costs bits).
        static func encode(rgba: [UInt8], width: Int, height: Int, effort level: Int, exact: Bool) -> [UInt8] {
            var argb = [UInt32](repeating: 0, count: width * height)
            var hasAlpha = false
            rgba.withUnsafeBufferPointer { bytes in
                for index in argb.indices {
                    // Safe: rgba holds 4 bytes per pixel (the caller's contract).
                    let alpha = UInt32(bytes[4 * index + 3])
                    if alpha != 255 { hasAlpha = true }
                    if alpha == 0, !exact { continue }
                    argb[index] = alpha << 24 | UInt32(bytes[4 * index]) << 16 | UInt32(bytes[4 * index + 1]) << 8
                        | UInt32(bytes[4 * index + 2])
                }
            }
            let effort = LosslessEffort(level: level)
            let palette = ColorIndexing(argb)
            var best: [UInt8]? = nil
            if let palette {
                best = encode(argb, width: width, height: height, hasAlpha: hasAlpha, palette: palette, effort: effort)
            }
            // Beyond 16 colours no indices are bundled, and a smooth image (a grey
            // ramp) predicts far better than its indices code: try both.
            if palette == nil || effort.triesWithoutPalette || (level >= 2 && (palette?.palette.count ?? 0) > 16) {
                let transformed = encode(argb, width: width, height: height, hasAlpha: hasAlpha, palette: nil, effort: effort)
                if best.map({ transformed.count < $0.count }) ?? true { best = transformed }
            }
            return best ?? []
        }

        private static func encode(_ pixels: [UInt32], width: Int, height: Int, hasAlpha: Bool,
                                   palette: ColorIndexing?, effort: LosslessEffort) -> [UInt8] {
            var writer = LosslessBitWriter(capacity: pixels.count)
            writer.write(UInt32(LosslessDecoder.signature), 8)
            writer.write(width - 1, 14)
            writer.write(height - 1, 14)
            writer.write(hasAlpha ? 1 : 0, 1)
            writer.write(0, 3)
            var argb = pixels
            var codedWidth = width
            if let palette {
                writeTransform(.colorIndexing, into: &writer)
                writer.write(palette.palette.count - 1, 8)
                LosslessImageWriter.write(palette.deltaCoded, width: palette.palette.count, height: 1, isMain: false,
                                          effort: effort, into: &writer)
                argb = palette.indexImage(pixels, width: width, height: height)
                codedWidth = subsampledSize(width, palette.bundleBits)
            } else {
                writeTransform(.subtractGreen, into: &writer)
                for index in argb.indices {
                    let green = (argb[index] >> 8) & 0xff
                    let redBlue = (argb[index] & 0x00ff_00ff) &+ 0x0100_0100 &- (green << 16 | green)
                    argb[index] = (argb[index] & 0xff00_ff00) | (redBlue & 0x00ff_00ff)
                }
                let bits = effort.transformBits
                let predicted = PredictorSearch.apply(argb, width: width, height: height, bits: bits, modes: effort.predictorModes)
                writeTransform(.predictor, into: &writer)
                writer.write(bits - 2, 3)
                LosslessImageWriter.write(predicted.modes, width: subsampledSize(width, bits), height: subsampledSize(height, bits),
                                          isMain: false, effort: effort, into: &writer)
                argb = predicted.residuals
                if effort.crossColor {
                    let elements = CrossColorSearch.apply(&argb, width: width, height: height, bits: bits)
                    writeTransform(.crossColor, into: &writer)
                    writer.write(bits - 2, 3)
                    LosslessImageWriter.write(elements, width: subsampledSize(width, bits), height: subsampledSize(height, bits),
                                              isMain: false, effort: effort, into: &writer)
                }
            }
            writer.write(0, 1)
            LosslessImageWriter.write(argb, width: codedWidth, height: height, isMain: true, effort: effort, into: &writer)
            return writer.finish()
        }

        private static func writeTransform(_ kind: LosslessTransform.Kind, into writer: inout LosslessBitWriter) {
            writer.write(1, 1)
            writer.write(kind.rawValue, 2)
        }
    }
}
