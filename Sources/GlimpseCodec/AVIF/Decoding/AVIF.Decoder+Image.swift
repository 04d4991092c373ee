extension AVIF.Decoder {
    /// The primary image as RGBA: the planes of ``decodePlanes(applyingFilmGrain:)`` converted
    /// with the colour description's matrix and range as libavif converts them, by
    /// ``AVIF/FixedPointYUVToRGB`` (libyuv's arithmetic) for 8-bit output where libavif uses
    /// libyuv, else by ``AVIF/YUVToRGB`` (libavif's own floating-point path), then the
    /// transformations in the order MIAF §7.3.6.7 gives (`clap`, `irot`, `imir`).
    /// ``PixelFormat/rgba16`` for sources deeper than 8 bits when the options ask for it
    /// (``DecodingOptions/SampleDepth/preserve``). The metadata's ``ImageMetadata/cicp``
    /// describes the RGB pixels (matrix 0, full range); the orientation is ``Orientation/up``,
    /// since the transformative properties are applied (a reader ignores an Exif orientation
    /// in HEIF, ISO/IEC 23008-12 §6.5.1).
    func decodeImage(metadata: ImageMetadata) throws(ImageDecodingError) -> Image {
        guard let primary, let codedImage else { throw .truncated }
        let (color, alpha) = try decodePlanes()
        guard color.width == primary.color.width, color.height == primary.color.height else {
            throw .avif(.codedSizeDiffersFromExtents)
        }
        if let alpha, alpha.width != color.width || alpha.height != color.height { throw .avif(.auxiliarySize) }

        var points = primary.codePoints ?? codedImage.sequenceHeader.color.codePoints
        points.isFullRange = color.isFullRange
        let subsampled = color.subsamplingX + color.subsamplingY > 0 && !color.isMonochrome
        guard let matrix = AVIF.ColorMatrix(matrixCoefficients: points.matrixCoefficients, colorPrimaries: points.colorPrimaries,
                                            isFullRange: points.isFullRange),
              !(matrix == .identity && subsampled) else {
            throw .avif(.matrixCoefficients(points.matrixCoefficients))
        }
        let format: PixelFormat = options.sampleDepth == .preserve && color.bitDepth > 8 ? .rgba16 : .rgba8
        try options.limits.checkDimensions(width: color.width, height: color.height)
        _ = try options.limits.checkBytes(color.width * color.height, of: format.bytesPerPixel)

        let premultiplied = primary.isAlphaPremultiplied
        let fixedPoint = format == .rgba8 ? AVIF.FixedPointYUVToRGB(
            matrixCoefficients: points.matrixCoefficients, colorPrimaries: points.colorPrimaries,
            isFullRange: color.isFullRange, isMonochrome: color.isMonochrome) : nil
        var pixels: PixelBuffer
        if let fixedPoint, let converted = fixedPoint.convert(
            color, alpha: alpha.map { (AVIF.YUVToRGB.fullRangeAlpha($0), $0.bitDepth) }, premultiplied: premultiplied) {
            pixels = converted
        } else {
            let converter = AVIF.YUVToRGB(matrix: matrix, bitDepth: color.bitDepth, isFullRange: color.isFullRange)
            pixels = converter.convert(color, alpha: alpha, premultiplied: premultiplied, to: format)
        }
        if let crop = primary.crop, crop.width != pixels.width || crop.height != pixels.height {
            // Inside the image: ``AVIF/CleanAperture`` checked the rectangle against `ispe`, which the planes match.
            do throws(TransformError) {
                pixels = try ImageTransformers.Crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height).transform(pixels)
            } catch {
                throw .avif(.cleanAperture)
            }
        }
        let orientation = Self.orientation(quarterTurns: primary.quarterTurns, mirrorAxis: primary.mirrorAxis)
        pixels = RightAngleRemap.apply(orientation, to: pixels)

        var metadata = metadata
        metadata.iccProfile = primary.iccProfile
        metadata.cicp = CodingIndependentCodePoints(colorPrimaries: points.colorPrimaries,
                                                    transferCharacteristics: points.transferCharacteristics,
                                                    matrixCoefficients: 0, isFullRange: true)
        metadata.orientation = .up
        return Image(pixels: pixels, format: .avif, metadata: metadata)
    }

    /// The one rearrangement that is `irot`'s anti-clockwise quarter turns followed by `imir`'s
    /// mirror, named as the EXIF orientation that ``RightAngleRemap`` undoes. `imir` axis 0
    /// exchanges top and bottom, 1 left and right (ISO/IEC 23008-12:2022 §6.5.12, which notes
    /// that axis 0 is Exif orientation 4 and axis 1 is 2; libavif and Pillow read it so).
    static func orientation(quarterTurns: Int, mirrorAxis: Int?) -> Orientation {
        switch (quarterTurns & 3, mirrorAxis) {
        case (0, nil): .up
        case (1, nil): .left
        case (2, nil): .down
        case (3, nil): .right
        case (0, 1?), (2, 0?): .upMirrored
        case (0, _), (2, _): .downMirrored
        case (1, 0?), (3, 1?): .leftMirrored
        default: .rightMirrored
        }
    }
}
