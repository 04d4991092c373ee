extension ImageTransformers {
    /// Blends every pixel's colour towards a tint colour; alpha is kept.
    ///
    /// `result = colour + (tint − colour) × intensity`, per channel, on the
    /// stored (gamma-encoded) values, like a "normal" blend of a tint layer
    /// at `intensity` opacity clipped to the image's own alpha.
    public struct Tint: ImageTransformer, Hashable {
        /// The tint colour as 8-bit sRGB samples (scaled ×257 for RGBA16).
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8
        /// 0 leaves the image alone, 1 paints every pixel the tint colour.
        public var intensity: Double

        public init(red: UInt8, green: UInt8, blue: UInt8, intensity: Double = 1) {
            self.red = red
            self.green = green
            self.blue = blue
            self.intensity = intensity
        }

        public var cacheKey: String { "tint(\(red),\(green),\(blue),\(intensity))" }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            guard intensity >= 0, intensity <= 1 else { throw .invalidParameter("tint intensity \(intensity)") }
            try pixels.checkTransformable()
            var output = pixels
            let maximum = Double(pixels.format.maximumSampleValue)
            let scale = maximum / 255
            let tint = [Double(red) * scale, Double(green) * scale, Double(blue) * scale]
            let count = pixels.pixelCount
            switch pixels.format {
            case .rgba8:
                // One table per channel: 256 entries replace a multiply per sample.
                let tables = tint.map { t in
                    (0..<256).map { v in UInt8(min(255, max(0, Double(v) + (t - Double(v)) * intensity + 0.5))) }
                }
                let (tr, tg, tb) = (tables[0], tables[1], tables[2])
                output.bytes.withUnsafeMutableBufferPointer { bytes in
                    // checkTransformable() proved bytes.count == 4 · count.
                    for i in 0..<count {
                        let o = i &* 4
                        bytes[o] = tr[Int(bytes[o])]
                        bytes[o &+ 1] = tg[Int(bytes[o &+ 1])]
                        bytes[o &+ 2] = tb[Int(bytes[o &+ 2])]
                    }
                }
            case .rgba16:
                let keep = Float(1 - intensity)
                let add = SIMD4<Float>(Float(tint[0] * intensity), Float(tint[1] * intensity), Float(tint[2] * intensity), 0)
                output.bytes.withUnsafeMutableBytes { bytes in
                    // checkTransformable() proved bytes.count == 8 · count.
                    for i in 0..<count {
                        let o = i &* 8
                        for c in 0..<3 {
                            let v = Float(bytes.loadUnaligned(fromByteOffset: o &+ c &* 2, as: UInt16.self))
                            let blended = min(65535, max(0, v * keep + add[c] + 0.5))
                            bytes.storeBytes(of: UInt16(blended), toByteOffset: o &+ c &* 2, as: UInt16.self)
                        }
                    }
                }
            }
            return output
        }
    }
}
