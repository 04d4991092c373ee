extension ImageTransformers {
    /// Mirrors the image. Exact: pixels are moved, never resampled.
    public struct Flip: ImageTransformer, Hashable {
        public enum Axis: String, Sendable, Hashable, CaseIterable {
            /// Left becomes right.
            case horizontal
            /// Top becomes bottom.
            case vertical
        }

        public var axis: Axis

        public init(_ axis: Axis) {
            self.axis = axis
        }

        public var cacheKey: String { "flip(\(axis.rawValue))" }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            try pixels.checkTransformable()
            return RightAngleRemap.apply(axis == .horizontal ? .upMirrored : .downMirrored, to: pixels)
        }
    }
}
