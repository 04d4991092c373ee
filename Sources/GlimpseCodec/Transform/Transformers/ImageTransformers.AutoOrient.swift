extension ImageTransformers {
    /// Turns the pixels upright as the image's EXIF orientation (tag 0x0112,
    /// values 1–8; ``ImageMetadata/orientation``) says, and resets the
    /// orientation to ``Orientation/up`` so it is never applied twice.
    /// Orientations 5–8 swap width and height.
    public struct AutoOrient: ImageTransformer, Hashable {
        public init() {}

        public var cacheKey: String { "orient" }

        /// A bare pixel buffer carries no orientation: returned unchanged.
        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            pixels
        }

        public func transform(_ image: Image) throws(TransformError) -> Image {
            guard !image.frames.isEmpty else { throw .emptyImage }
            var result = image
            let orientation = image.metadata.orientation
            for index in result.frames.indices {
                try image.frames[index].pixels.checkTransformable()
                result.frames[index].pixels = RightAngleRemap.apply(orientation, to: image.frames[index].pixels)
            }
            result.metadata.orientation = .up
            return result
        }
    }
}
