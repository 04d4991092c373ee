extension AVIF {
    /// Decoded planes to straight-alpha RGBA, with the arithmetic libavif's own path uses
    /// (`reformat.c`: 16-bit output, and the matrices and shapes libyuv has no rows for; the
    /// others go through ``FixedPointYUVToRGB``), so the pixels match what libavif's users see:
    ///
    /// - samples normalised through a table per plane, Y′ = (Y − bias) / range and
    ///   Cb, Cr = (C − 2ᴺ⁻¹) / range, the ranges of H.273 equations 20–31 (limited:
    ///   219·2ᴺ⁻⁸ and 224·2ᴺ⁻⁸ above 16·2ᴺ⁻⁸; full: 2ᴺ − 1);
    /// - 4:2:0 and 4:2:2 chroma upsampled bilinearly, each output pixel weighting its nearest
    ///   chroma sample 9/16, the next one across and the next one down 3/16 each and the
    ///   diagonal 1/16 (AV1 places chroma between luma columns and rows, "centred", and at
    ///   the edges the nearest sample stands in for the missing ones);
    /// - R, G and B by the ``ColorMatrix``, clamped to 0…1 and rounded to the output depth;
    /// - alpha as stored (limited-range alpha first widened to full range), rescaled to the
    ///   output depth; premultiplied colour (`prem`) divided back by alpha.
    ///
    /// Single precision throughout, as libavif computes, in the same order of operations.
    struct YUVToRGB: Sendable {
        let matrix: ColorMatrix
        /// Y′ for every sample value, and Cb/Cr (the same table for the identity matrix).
        private let lumaTable: [Float]
        private let chromaTable: [Float]

        init(matrix: ColorMatrix, bitDepth: Int, isFullRange: Bool) {
            self.matrix = matrix
            let maximum = (1 << bitDepth) - 1
            let biasY: Float = isFullRange ? 0 : Float(16 << (bitDepth - 8))
            let biasUV = Float(1 << (bitDepth - 1))
            let rangeY = Float(isFullRange ? maximum : 219 << (bitDepth - 8))
            let rangeUV = Float(isFullRange ? maximum : 224 << (bitDepth - 8))
            lumaTable = (0...maximum).map { (Float($0) - biasY) / rangeY }
            chromaTable = matrix == .identity ? lumaTable : (0...maximum).map { (Float($0) - biasUV) / rangeUV }
        }

        /// RGBA of `color` and `alpha` (the same size; checked by the caller), as `format`.
        func convert(_ color: DecodedPlanes, alpha: DecodedPlanes?, premultiplied: Bool, to format: PixelFormat) -> PixelBuffer {
            var output = PixelBuffer(width: color.width, height: color.height, format: format)
            let alphaSamples = alpha.map(Self.fullRangeAlpha)
            switch format {
            case .rgba8: fill(&output, UInt8.self, color, alpha: alphaSamples, alphaDepth: alpha?.bitDepth ?? 8, premultiplied: premultiplied)
            case .rgba16: fill(&output, UInt16.self, color, alpha: alphaSamples, alphaDepth: alpha?.bitDepth ?? 8, premultiplied: premultiplied)
            }
            return output
        }

        private func fill<Sample: FixedWidthInteger & UnsignedInteger>(
            _ output: inout PixelBuffer, _: Sample.Type, _ color: DecodedPlanes, alpha: [UInt16]?, alphaDepth: Int,
            premultiplied: Bool
        ) {
            let width = color.width, height = color.height
            let maximum = Float(Sample.max)
            let sampleMaximum = UInt16((1 << color.bitDepth) - 1)
            let alphaMaximum = (1 << alphaDepth) - 1
            let alphaScale = Float(alphaMaximum)
            let hasChroma = !color.isMonochrome
            var cb = [Float](repeating: 0, count: width), cr = [Float](repeating: 0, count: width)
            output.bytes.withUnsafeMutableBytes { raw in
                let out = raw.bindMemory(to: Sample.self)
                for y in 0..<height {
                    if hasChroma { upsampleChroma(color, row: y, cb: &cb, cr: &cr) }
                    color.planes[0].withUnsafeBufferPointer { luma in
                        // Row y of the luma plane spans y·width..<(y + 1)·width of its width × height samples.
                        let row = y &* width
                        var at = row &* 4
                        for x in 0..<width {
                            let yValue = lumaTable[Int(min(luma[row &+ x], sampleMaximum))]
                            var (r, g, b) = hasChroma ? rgb(y: yValue, cb: cb[x], cr: cr[x]) : (yValue, yValue, yValue)
                            r = Self.clamp(r)
                            g = Self.clamp(g)
                            b = Self.clamp(b)
                            var a = Sample.max
                            if let alpha {
                                let stored = Int(alpha[row &+ x])
                                if premultiplied {
                                    let opacity = Self.clamp(Float(stored) / alphaScale)
                                    if opacity == 0 {
                                        (r, g, b) = (0, 0, 0)
                                    } else if opacity < 1 {
                                        (r, g, b) = (min(r / opacity, 1), min(g / opacity, 1), min(b / opacity, 1))
                                    }
                                }
                                a = alphaDepth == Sample.bitWidth ? Sample(truncatingIfNeeded: stored)
                                    : Sample(min(Int(0.5 + Float(stored) / alphaScale * maximum), Int(Sample.max)))
                            }
                            out[at] = Sample(0.5 + r * maximum)
                            out[at &+ 1] = Sample(0.5 + g * maximum)
                            out[at &+ 2] = Sample(0.5 + b * maximum)
                            out[at &+ 3] = a
                            at &+= 4
                        }
                    }
                }
            }
        }

        /// R, G, B of one pixel, unclamped.
        @inline(__always)
        private func rgb(y: Float, cb: Float, cr: Float) -> (Float, Float, Float) {
            switch matrix {
            case .identity:
                return (cr, y, cb)
            case .yCgCo:
                let t = y - cb
                return (t + cr, y + cb, t - cr)
            case .coefficients(let kr, let kb):
                let kg = 1 - kr - kb
                let r = y + (2 * (1 - kr)) * cr
                let b = y + (2 * (1 - kb)) * cb
                let g = y - ((2 * ((kr * (1 - kr) * cr) + (kb * (1 - kb) * cb))) / kg)
                return (r, g, b)
            }
        }

        /// `value` limited to 0…1; NaN, which no code point's coefficients produce, to 0.
        @inline(__always)
        private static func clamp(_ value: Float) -> Float {
            value > 0 ? (value < 1 ? value : 1) : 0
        }

        /// Cb and Cr of every pixel of luma row `y`, upsampled from the chroma planes.
        private func upsampleChroma(_ color: DecodedPlanes, row y: Int, cb: inout [Float], cr: inout [Float]) {
            let width = color.width, height = color.height
            let chromaWidth = color.planeWidth(1)
            let sampleMaximum = UInt16((1 << color.bitDepth) - 1)
            let chromaRow = y >> color.subsamplingY
            // The vertically adjacent chroma row: above for even rows, below for odd ones, none on the
            // first row, on an odd last row, and in 4:2:2 and 4:4:4 (no vertical subsampling).
            var adjacentRow = chromaRow
            if color.subsamplingY == 1, y != 0, !(y == height - 1 && y % 2 != 0) {
                adjacentRow = y % 2 != 0 ? chromaRow + 1 : chromaRow - 1
            }
            for plane in 1...2 {
                color.planes[plane].withUnsafeBufferPointer { samples in
                    let near = chromaRow &* chromaWidth, far = adjacentRow &* chromaWidth
                    @inline(__always) func value(_ index: Int) -> Float { chromaTable[Int(min(samples[index], sampleMaximum))] }
                    for x in 0..<width {
                        let column = x >> color.subsamplingX
                        let result: Float
                        if color.subsamplingX == 0 && color.subsamplingY == 0 {
                            result = value(near &+ column)
                        } else {
                            var adjacentColumn = column
                            if color.subsamplingX == 1, x != 0, !(x == width - 1 && x % 2 != 0) {
                                adjacentColumn = x % 2 != 0 ? column + 1 : column - 1
                            }
                            result = value(near &+ column) * (9.0 / 16.0) + value(near &+ adjacentColumn) * (3.0 / 16.0)
                                + value(far &+ column) * (3.0 / 16.0) + value(far &+ adjacentColumn) * (1.0 / 16.0)
                        }
                        if plane == 1 { cb[x] = result } else { cr[x] = result }
                    }
                }
            }
        }

        /// The alpha plane's samples in full range: limited-range alpha (an AV1 alpha image coded
        /// with `color_range` 0) is widened as libavif does, (v − 16·2ᴺ⁻⁸)·(2ᴺ − 1) / (219·2ᴺ⁻⁸),
        /// rounded, clamped.
        static func fullRangeAlpha(_ alpha: DecodedPlanes) -> [UInt16] {
            let maximum = (1 << alpha.bitDepth) - 1
            guard !alpha.isFullRange else { return alpha.planes[0].map { UInt16(min(Int($0), maximum)) } }
            let low = 16 << (alpha.bitDepth - 8), span = 219 << (alpha.bitDepth - 8)
            return alpha.planes[0].map { stored in
                let widened = ((Int(stored) - low) * maximum + span / 2) / span
                return UInt16(min(max(widened, 0), maximum))
            }
        }
    }
}
