extension ImageTransformers {
    /// Gaussian blur with standard deviation ``sigma`` pixels, on premultiplied
    /// alpha, with edges extended (the border pixel repeats outwards).
    ///
    /// ``Method/exact``: separable, a horizontal then a vertical 1-D kernel of
    /// radius ⌈3σ⌉ whose weights are normalised to sum to 1, so flat areas stay
    /// flat. Rows are blurred horizontally into a ring of 2·radius + 1 rows and
    /// combined vertically from there, so working memory is that ring, not a
    /// second copy of the image. Cost grows with σ.
    ///
    /// ``Method/boxCascade``: three box blurs per axis whose widths match σ
    /// (Wells 1986; Kovesi 2010); cost independent of σ, within a few levels of
    /// the exact result. ``Method/automatic`` (the default) uses the exact
    /// kernel up to σ = 4 (25 taps) and the cascade above.
    public struct GaussianBlur: ImageTransformer, Hashable {
        public enum Method: String, Sendable, Hashable, CaseIterable {
            case automatic, exact, boxCascade
        }

        /// Standard deviation in pixels, in (0, 500].
        public var sigma: Double
        public var method: Method
        /// Bounds on the working memory; not part of ``cacheKey``.
        public var limits: DecodingLimits

        public init(sigma: Double, method: Method = .automatic, limits: DecodingLimits = DecodingLimits()) {
            self.sigma = sigma
            self.method = method
            self.limits = limits
        }

        public var cacheKey: String { method == .automatic ? "blur(\(sigma))" : "blur(\(sigma),\(method.rawValue))" }

        /// Largest σ the automatic method blurs with the exact kernel.
        static let largestExactSigma = 4.0

        /// The normalised 1-D kernel, radius ⌈3σ⌉, centre in the middle.
        public static func kernel(sigma: Double) -> [Float] {
            let radius = Int((3 * sigma).rounded(.up))
            let weights = (-radius...radius).map { x in
                ScalarMath.exp(-Double(x * x) / (2 * sigma * sigma))
            }
            let sum = weights.reduce(0, +)
            return weights.map { Float($0 / sum) }
        }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            guard sigma > 0, sigma <= 500 else { throw .invalidParameter("blur sigma \(sigma)") }
            try pixels.checkTransformable()
            if method == .boxCascade || (method == .automatic && sigma > Self.largestExactSigma) {
                let cascade = BoxBlurCascade(sigma: sigma)
                try limits.checkTransformOutput(width: pixels.width, height: pixels.height, format: pixels.format,
                                                workingBytes: cascade.workingBytes(width: pixels.width))
                return cascade.blur(pixels)
            }
            let kernel = Self.kernel(sigma: sigma)
            let radius = kernel.count / 2
            let width = pixels.width, height = pixels.height
            let ringRows = min(kernel.count, height)
            let simd = MemoryLayout<SIMD4<Float>>.stride
            let padded = width + 2 * radius
            try limits.checkTransformOutput(width: width, height: height, format: pixels.format,
                                            workingBytes: (ringRows * width + padded + width) * simd)
            var output = PixelBuffer(width: width, height: height, format: pixels.format)
            var ring = [SIMD4<Float>](repeating: SIMD4(), count: ringRows * width)
            var line = [SIMD4<Float>](repeating: SIMD4(), count: padded)
            var accumulator = [SIMD4<Float>](repeating: SIMD4(), count: width)
            let format = pixels.format
            let rowBytes = pixels.bytesPerRow
            let table = SampleTables.toWorking(format: format, linear: false)

            // Every pointer comes from a scoped closure over an array sized above;
            // row indices are clamped to 0..<height and ring slots taken modulo ringRows.
            pixels.bytes.withUnsafeBytes { input in
                output.bytes.withUnsafeMutableBytes { out in
                    ring.withUnsafeMutableBufferPointer { ring in
                        line.withUnsafeMutableBufferPointer { line in
                            accumulator.withUnsafeMutableBufferPointer { accumulator in
                                kernel.withUnsafeBufferPointer { kernel in
                                    table.withUnsafeBufferPointer { table in
                                        guard let input = input.baseAddress, let out = out.baseAddress,
                                              let ring = ring.baseAddress, let line = line.baseAddress,
                                              let acc = accumulator.baseAddress, let k = kernel.baseAddress,
                                              let table = table.baseAddress else { return }
                                        var blurredRows = 0
                                        func blurRow(_ y: Int) {
                                            WorkingPixels.load(input + y &* rowBytes, count: width, format: format,
                                                               table: table, into: line + radius)
                                            line.update(repeating: line[radius], count: radius)
                                            (line + (radius &+ width)).update(repeating: line[radius &+ width &- 1], count: radius)
                                            let target = ring + (y % ringRows) &* width
                                            for x in 0..<width {
                                                target[x] = WorkingPixels.weightedSum(k, line + x, count: kernel.count)
                                            }
                                        }
                                        for y in 0..<height {
                                            while blurredRows < min(y &+ radius &+ 1, height) {
                                                blurRow(blurredRows)
                                                blurredRows &+= 1
                                            }
                                            acc.update(repeating: SIMD4(), count: width)
                                            for t in 0..<kernel.count {
                                                let sourceRow = min(max(y &+ t &- radius, 0), height &- 1)
                                                let source = ring + (sourceRow % ringRows) &* width
                                                let weight = SIMD4<Float>(repeating: k[t])
                                                for x in 0..<width { acc[x] += weight * source[x] }
                                            }
                                            WorkingPixels.store(acc, count: width, format: format, linear: false,
                                                                into: out + y &* rowBytes)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return output
        }
    }
}
