/// Decodes original bytes, at reduced size when the image would be larger
/// than a pixel budget.
///
/// JPEG is decoded with DCT scaling (ITU T.81 §A.3.3's 8×8 blocks reduced to
/// 4×4, 2×2 or 1×1 samples: `DecodingOptions.scaleDenominator`), which skips
/// most of the IDCT work; what is still over budget afterwards (and every other
/// format) is resized with the transform module's filter.
struct DecodeStage: Sendable {
    var registry: DecoderRegistry
    var options: DecodingOptions
    /// Upper bound of the first frame's pixel bytes; `nil` for full size.
    var maxPixelBytes: Int?

    func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> Image {
        guard let maxPixelBytes, maxPixelBytes > 0 else { return try registry.decode(bytes, options: options) }
        var options = options
        if let info = Self.probe(bytes, registry: registry), info.format == .jpeg {
            let full = Self.pixelBytes(info.width, info.height, denominator: 1)
            var denominator = 1
            while full > maxPixelBytes, denominator < 8,
                  Self.pixelBytes(info.width, info.height, denominator: denominator) > maxPixelBytes {
                denominator *= 2
            }
            options.scaleDenominator = denominator
        }
        let image = try registry.decode(bytes, options: options)
        let pixelBytes = image.pixels.bytes.count
        guard pixelBytes > maxPixelBytes, image.width > 0, image.height > 0 else { return image }
        // Area shrinks with the square of the side.
        let factor = (Double(maxPixelBytes) / Double(pixelBytes)).squareRoot()
        let width = max(1, Int(Double(image.width) * factor))
        let height = max(1, Int(Double(image.height) * factor))
        let resize = ImageTransformers.Resize(width: width, height: height, mode: .fit, appliesOrientation: false)
        // A resize that cannot run (it only rejects impossible sizes) leaves the decoded image.
        return (try? resize.transform(image)) ?? image
    }

    /// Header information from the first bytes, or `nil` when the header is not
    /// complete or not valid.
    ///
    /// Small pieces first, so that the decoder stops at the header rather than start on
    /// the image (a progressive JPEG's first scan would allocate all its coefficients).
    static func probe(_ bytes: [UInt8], registry: DecoderRegistry) -> ImageInfo? {
        var decoder = AutoDecoder(registry: registry, options: DecodingOptions(firstFrameOnly: true))
        var offset = 0
        var step = 64
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            do throws(ImageDecodingError) {
                _ = try decoder.append(bytes[offset..<end])
            } catch {
                return nil
            }
            if let info = decoder.info { return info }
            offset = end
            // Past 64 KB of header (EXIF, ICC), larger pieces.
            if offset >= 1 << 16 { step = min(step * 2, 1 << 20) }
        }
        return nil
    }

    private static func pixelBytes(_ width: Int, _ height: Int, denominator: Int) -> Int {
        let w = (width + denominator - 1) / denominator
        let h = (height + denominator - 1) / denominator
        let (area, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, area <= Int.max / 4 else { return .max }
        return area * 4
    }
}
