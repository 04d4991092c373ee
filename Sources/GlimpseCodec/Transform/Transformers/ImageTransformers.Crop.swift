extension ImageTransformers {
    /// Keeps a rectangle of the image. The rectangle must lie entirely inside
    /// every frame; anything else is an ``TransformError/invalidParameter(_:)``.
    public struct Crop: ImageTransformer, Hashable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var cacheKey: String { "crop(\(x),\(y),\(width)x\(height))" }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            try pixels.checkTransformable()
            guard width > 0, height > 0 else { throw .invalidParameter("crop size \(width)x\(height)") }
            // Subtractions, not additions, so huge parameters cannot overflow.
            guard x >= 0, y >= 0, x <= pixels.width - width, y <= pixels.height - height else {
                throw .invalidParameter("crop rectangle \(x),\(y) \(width)x\(height) outside \(pixels.width)x\(pixels.height)")
            }
            if width == pixels.width && height == pixels.height { return pixels }
            var output = PixelBuffer(width: width, height: height, format: pixels.format)
            let rowBytes = output.bytesPerRow
            let offset = x * pixels.format.bytesPerPixel
            for row in 0..<height {
                let start = (y + row) * pixels.bytesPerRow + offset
                output.bytes.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes,
                                             with: pixels.bytes[start..<start + rowBytes])
            }
            return output
        }
    }
}
