extension AVIF {
    /// The decoded planes of an AV1 frame as the output process gives them (AV1 §7.18:
    /// OutY, OutU, OutV, `UpscaledWidth × FrameHeight` luma samples, chroma
    /// ( w + subX ) >> subX × ( h + subY ) >> subY), one `UInt16` per sample of `bitDepth`
    /// bits: what dav1d outputs and `avifdec … OUT.y4m` writes.
    public struct DecodedPlanes: Sendable, Equatable {
        /// Luma width and height.
        public let width: Int
        public let height: Int
        /// `BitDepth`: 8, 10 or 12.
        public let bitDepth: Int
        /// `subsampling_x`, `subsampling_y` (1: chroma at half resolution).
        public let subsamplingX: Int
        public let subsamplingY: Int
        /// Full range: `color_range` of the sequence header, or the `nclx` colour property's
        /// full-range flag when the container has one (as libavif takes it).
        public internal(set) var isFullRange: Bool
        /// Y, then U and V unless monochrome; plane `p` is ``planeWidth(_:)`` × ``planeHeight(_:)`` row-major.
        public internal(set) var planes: [[UInt16]]

        public var isMonochrome: Bool { planes.count == 1 }

        public func planeWidth(_ plane: Int) -> Int { plane == 0 ? width : (width + subsamplingX) >> subsamplingX }
        public func planeHeight(_ plane: Int) -> Int { plane == 0 ? height : (height + subsamplingY) >> subsamplingY }

        /// The planes of `frame`, whose planes are exactly the output's sizes.
        init(_ frame: AV1Frame, width: Int, height: Int, isFullRange: Bool) {
            self.width = width
            self.height = height
            bitDepth = frame.bitDepth
            subsamplingX = frame.subsamplingX
            subsamplingY = frame.subsamplingY
            self.isFullRange = isFullRange
            planes = frame.planes.map(\.samples)
        }
    }
}
