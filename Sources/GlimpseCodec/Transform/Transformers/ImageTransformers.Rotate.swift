extension ImageTransformers {
    /// Rotates the image clockwise (as displayed, y pointing down) by any angle.
    ///
    /// Multiples of 90° are exact pixel moves. Other angles enlarge the canvas
    /// to hold the whole rotated image, fill the corners with transparent
    /// black, and sample bilinearly on premultiplied alpha; the image's edges
    /// fade over one pixel, which anti-aliases them.
    public struct Rotate: ImageTransformer, Hashable {
        /// Clockwise angle in degrees; any finite value (reduced modulo 360).
        public var degrees: Double
        /// Bounds on the enlarged canvas; not part of ``cacheKey``.
        public var limits: DecodingLimits

        public init(degrees: Double, limits: DecodingLimits = DecodingLimits()) {
            self.degrees = degrees
            self.limits = limits
        }

        /// The angle reduced to [0, 360).
        var normalizedDegrees: Double {
            let reduced = degrees.truncatingRemainder(dividingBy: 360)
            let positive = reduced < 0 ? reduced + 360 : reduced
            return positive == 360 || positive == 0 ? 0 : positive
        }

        public var cacheKey: String { "rotate(\(normalizedDegrees))" }

        public func transform(_ image: Image) throws(TransformError) -> Image {
            guard degrees.isFinite else { throw .invalidParameter("rotation angle \(degrees)") }
            let size = try ArbitraryRotation(degrees: normalizedDegrees, limits: limits)
                .outputSize(width: image.width, height: image.height)
            return try transformEachFrame(image, outputWidth: size.width, outputHeight: size.height, limits: limits)
        }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            guard degrees.isFinite else { throw .invalidParameter("rotation angle \(degrees)") }
            try pixels.checkTransformable()
            switch normalizedDegrees {
            case 0: return pixels
            case 90: return RightAngleRemap.apply(.right, to: pixels)
            case 180: return RightAngleRemap.apply(.down, to: pixels)
            case 270: return RightAngleRemap.apply(.left, to: pixels)
            default: return try ArbitraryRotation(degrees: normalizedDegrees, limits: limits).rotate(pixels)
            }
        }
    }
}
