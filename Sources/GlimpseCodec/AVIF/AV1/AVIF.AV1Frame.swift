extension AVIF {
    /// A decoded AV1 frame: one ``AV1Plane`` for luma and, unless monochrome, two for chroma,
    /// with the bit depth and chroma subsampling the sequence header gives (§6.4.2).
    struct AV1Frame: Sendable, Equatable {
        /// `CurrFrame[ 0 ]`, and `CurrFrame[ 1 ]`, `CurrFrame[ 2 ]` when `NumPlanes` is 3.
        var planes: [AV1Plane]
        /// `BitDepth`: 8, 10 or 12.
        let bitDepth: Int
        /// `subsampling_x`, `subsampling_y`: 1 where chroma has half the luma resolution.
        let subsamplingX: Int
        let subsamplingY: Int

        /// `NumPlanes`.
        var numPlanes: Int { planes.count }

        /// A frame whose luma plane is `lumaWidth` × `lumaHeight` samples plus `margin` on the
        /// right and bottom, chroma planes ( size + subsampling ) >> subsampling plus `margin`,
        /// every sample `value`.
        init(lumaWidth: Int, lumaHeight: Int, bitDepth: Int, subsamplingX: Int, subsamplingY: Int,
             monochrome: Bool, margin: Int = 0, value: UInt16 = 0) {
            self.bitDepth = bitDepth
            self.subsamplingX = subsamplingX
            self.subsamplingY = subsamplingY
            var planes = [AV1Plane(width: lumaWidth &+ margin, height: lumaHeight &+ margin, value: value)]
            if !monochrome {
                let w = ((lumaWidth &+ subsamplingX) &>> subsamplingX) &+ margin
                let h = ((lumaHeight &+ subsamplingY) &>> subsamplingY) &+ margin
                planes.append(AV1Plane(width: w, height: h, value: value))
                planes.append(AV1Plane(width: w, height: h, value: value))
            }
            self.planes = planes
        }

        /// The frame the tile decoder reconstructs into: `MiCols * MI_SIZE` × `MiRows * MI_SIZE`
        /// luma samples (the area §7.11.2's maxX and maxY bound) plus 64 samples right and below,
        /// because a transform block starting inside that area may extend up to 63 samples past it.
        static func currentFrame(miCols: Int, miRows: Int, bitDepth: Int, subsamplingX: Int,
                                 subsamplingY: Int, monochrome: Bool) -> AV1Frame {
            AV1Frame(lumaWidth: miCols &* AV1Tables.MI_SIZE, lumaHeight: miRows &* AV1Tables.MI_SIZE,
                     bitDepth: bitDepth, subsamplingX: subsamplingX, subsamplingY: subsamplingY,
                     monochrome: monochrome, margin: 64)
        }
    }
}
