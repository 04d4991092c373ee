extension AVIF {
    /// The `clap` property (ISO/IEC 14496-12 §12.1.4.2, MIAF §7.3.6.7): a crop given as a
    /// centred rectangle, width and height and the centre's offset from the image's
    /// centre, each a fraction (the offsets signed).
    public struct CleanAperture: Sendable, Hashable {
        public let widthN: UInt32, widthD: UInt32
        public let heightN: UInt32, heightD: UInt32
        public let horizontalOffsetN: Int32, horizontalOffsetD: UInt32
        public let verticalOffsetN: Int32, verticalOffsetD: UInt32

        init(_ values: [UInt32]) {
            widthN = values[0]; widthD = values[1]; heightN = values[2]; heightD = values[3]
            horizontalOffsetN = Int32(bitPattern: values[4]); horizontalOffsetD = values[5]
            verticalOffsetN = Int32(bitPattern: values[6]); verticalOffsetD = values[7]
        }

        /// The crop rectangle in an image of `width` × `height`, as libavif's
        /// `avifCropRectConvertCleanApertureBox` derives it: every fraction's denominator
        /// positive, the size integral, the corner `offset + (size − cropSize) / 2` integral
        /// and the rectangle inside the image. A corner or size at odd positions of subsampled
        /// chroma is accepted, as libavif 1.x accepts it (0.11 refused it): the crop is made
        /// of the RGB pixels, after chroma upsampling.
        func cropRectangle(width: Int, height: Int)
            throws(ImageDecodingError) -> (x: Int, y: Int, width: Int, height: Int) {
            guard widthD > 0, heightD > 0, horizontalOffsetD > 0, verticalOffsetD > 0,
                  widthN % widthD == 0, heightN % heightD == 0 else { throw .avif(.cleanAperture) }
            let cropWidth = Int(widthN / widthD), cropHeight = Int(heightN / heightD)
            guard let x = Self.corner(Int64(horizontalOffsetN), Int64(horizontalOffsetD), size: width, cropSize: cropWidth),
                  let y = Self.corner(Int64(verticalOffsetN), Int64(verticalOffsetD), size: height, cropSize: cropHeight),
                  cropWidth > 0, cropHeight > 0, x + cropWidth <= width, y + cropHeight <= height else {
                throw .avif(.cleanAperture)
            }
            return (x, y, cropWidth, cropHeight)
        }

        /// `offsetN / offsetD + (size − cropSize) / 2` when it is a whole number ≥ 0:
        /// `(2 × offsetN + (size − cropSize) × offsetD) / (2 × offsetD)`; a product that
        /// overflows is no valid crop either.
        private static func corner(_ offsetN: Int64, _ offsetD: Int64, size: Int, cropSize: Int) -> Int? {
            let (product, overflow) = Int64(size - cropSize).multipliedReportingOverflow(by: offsetD)
            guard !overflow else { return nil }
            let (numerator, carry) = (2 * offsetN).addingReportingOverflow(product)
            guard !carry else { return nil }
            let denominator = 2 * offsetD
            guard numerator >= 0, numerator % denominator == 0 else { return nil }
            return Int(numerator / denominator)
        }
    }
}
