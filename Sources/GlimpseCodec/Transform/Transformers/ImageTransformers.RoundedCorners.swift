extension ImageTransformers {
    /// Makes the corners transparent outside quarter circles of ``radius``,
    /// with an anti-aliased edge: a pixel's alpha is scaled by how much of it
    /// lies inside the arc (estimated from its centre's distance to the arc).
    public struct RoundedCorners: ImageTransformer, Hashable {
        /// Radius in pixels; clamped to half the shorter side. 0 changes nothing.
        public var radius: Double

        public init(radius: Double) {
            self.radius = radius
        }

        public var cacheKey: String { "corners(\(radius))" }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            guard radius >= 0, radius.isFinite else { throw .invalidParameter("corner radius \(radius)") }
            try pixels.checkTransformable()
            let r = min(radius, Double(min(pixels.width, pixels.height)) / 2)
            let extent = Int(r.rounded(.up))
            guard extent > 0 else { return pixels }
            // Coverage of the top-left corner's pixels; the other corners mirror it.
            var coverage = [Float](repeating: 1, count: extent * extent)
            for y in 0..<extent {
                for x in 0..<extent {
                    let dx = r - (Double(x) + 0.5), dy = r - (Double(y) + 0.5)
                    guard dx > 0, dy > 0 else { continue }
                    let distance = (dx * dx + dy * dy).squareRoot()
                    coverage[y * extent + x] = Float(min(1, max(0, r - distance + 0.5)))
                }
            }
            var output = pixels
            let w = pixels.width, h = pixels.height
            let maximum = Float(pixels.format.maximumSampleValue)
            let alphaOffset = 3 * pixels.format.bytesPerSample
            let bytesPerPixel = pixels.format.bytesPerPixel, rowBytes = pixels.bytesPerRow
            let is8 = pixels.format == .rgba8
            output.bytes.withUnsafeMutableBytes { bytes in
                for cy in 0..<extent {
                    for cx in 0..<extent {
                        let c = coverage[cy * extent + cx]
                        guard c < 1 else { continue }
                        // Corners overlap when the radius is half the side; apply once per pixel.
                        var corners = [(cx, cy), (w - 1 - cx, cy), (cx, h - 1 - cy), (w - 1 - cx, h - 1 - cy)]
                        if w - 1 - cx == cx { corners = [corners[0], corners[2]] }
                        if h - 1 - cy == cy { corners = corners.filter { $0.1 == cy } }
                        for (x, y) in corners {
                            // x in 0..<w and y in 0..<h because cx, cy < extent ≤ min(w, h) / 2 + 1.
                            let offset = y * rowBytes + x * bytesPerPixel + alphaOffset
                            if is8 {
                                let a = Float(bytes[offset]) * c
                                bytes[offset] = UInt8(min(maximum, a + 0.5))
                            } else {
                                let a = Float(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) * c
                                bytes.storeBytes(of: UInt16(min(maximum, a + 0.5)), toByteOffset: offset, as: UInt16.self)
                            }
                        }
                    }
                }
            }
            return output
        }
    }
}
