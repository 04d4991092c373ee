extension ImageTransformers {
    /// Several transformers applied in order. Its key joins theirs with `|`,
    /// so the same steps in the same order always share one cache entry.
    public struct Composition: ImageTransformer {
        public var transformers: [any ImageTransformer]

        public init(_ transformers: [any ImageTransformer]) {
            self.transformers = transformers
        }

        public init(_ transformers: any ImageTransformer...) {
            self.transformers = transformers
        }

        public var cacheKey: String { transformers.map(\.cacheKey).joined(separator: "|") }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            var current = pixels
            for transformer in transformers { current = try transformer.transform(current) }
            return current
        }

        /// Each step sees the whole image, so metadata-driven steps such as
        /// ``AutoOrient`` work inside a composition.
        public func transform(_ image: Image) throws(TransformError) -> Image {
            var current = image
            for transformer in transformers { current = try transformer.transform(current) }
            return current
        }
    }
}
