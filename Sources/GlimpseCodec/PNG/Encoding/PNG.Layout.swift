extension PNG {
    /// How the encoder stores pixels: an IHDR colour type and bit depth, plus
    /// the palette for indexed output.
    struct Layout: Sendable {
        var colorType: ColorType
        var bitDepth: Int
        /// RGBA entries (4 bytes each) for indexed output.
        var palette: [UInt8] = []
        /// Palette index of each RGBA8 colour (packed as a little-endian UInt32).
        var indices: [UInt32: UInt8] = [:]

        /// What a set of frames holds, gathered in one pass over the pixels.
        struct Analysis {
            var isGray = true
            var isOpaque = true
            /// Distinct RGBA8 colours, while there are at most 256.
            var colors: [UInt32: UInt8] = [:]
            var colorOrder: [UInt32] = []
            var tooManyColors = false

            init(_ buffers: [PixelBuffer]) {
                for pixels in buffers { add(pixels) }
            }

            private mutating func add(_ pixels: PixelBuffer) {
                pixels.bytes.withUnsafeBytes { raw in
                    switch pixels.format {
                    case .rgba8:
                        // Neighbouring pixels often repeat: the previous colour skips the lookup.
                        var previous: UInt32?
                        for i in 0..<pixels.pixelCount {
                            let p = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt8>.self)
                            if isGray && (p[0] != p[1] || p[1] != p[2]) { isGray = false }
                            if isOpaque && p[3] != 255 { isOpaque = false }
                            if !tooManyColors {
                                let key = raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                                if key == previous { continue }
                                previous = key
                                if colors[key] == nil {
                                    if colors.count == 256 {
                                        tooManyColors = true
                                    } else {
                                        colors[key] = UInt8(truncatingIfNeeded: colors.count)
                                        colorOrder.append(key)
                                    }
                                }
                            }
                        }
                    case .rgba16:
                        tooManyColors = true
                        for i in 0..<pixels.pixelCount {
                            let p = raw.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<UInt16>.self)
                            if isGray && (p[0] != p[1] || p[1] != p[2]) { isGray = false }
                            if isOpaque && p[3] != 65535 { isOpaque = false }
                        }
                    }
                }
            }
        }

        /// The smallest lossless layout for `analysis`, or the one `mode` asks for
        /// (`nil` when it would lose information).
        init?(mode: Encoder.ColorMode, analysis: Analysis, wide: Bool) {
            let depth = wide ? 16 : 8
            switch mode {
            case .automatic:
                if analysis.isGray && analysis.isOpaque {
                    self.init(colorType: .grayscale, bitDepth: depth)
                } else if !wide && !analysis.tooManyColors {
                    self.init(indexed: analysis)
                } else if analysis.isGray {
                    self.init(colorType: .grayscaleAlpha, bitDepth: depth)
                } else {
                    self.init(colorType: analysis.isOpaque ? .rgb : .rgba, bitDepth: depth)
                }
            case .rgba:
                self.init(colorType: .rgba, bitDepth: depth)
            case .rgb:
                guard analysis.isOpaque else { return nil }
                self.init(colorType: .rgb, bitDepth: depth)
            case .grayscale:
                guard analysis.isGray, analysis.isOpaque else { return nil }
                self.init(colorType: .grayscale, bitDepth: depth)
            case .grayscaleAlpha:
                guard analysis.isGray else { return nil }
                self.init(colorType: .grayscaleAlpha, bitDepth: depth)
            case .indexed:
                guard !wide, !analysis.tooManyColors else { return nil }
                self.init(indexed: analysis)
            }
        }

        init(colorType: ColorType, bitDepth: Int) {
            self.colorType = colorType
            self.bitDepth = bitDepth
        }

        private init(indexed analysis: Analysis) {
            colorType = .indexed
            let count = max(1, analysis.colors.count)
            bitDepth = count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8
            indices = analysis.colors
            for key in analysis.colorOrder {
                palette.append(contentsOf: [UInt8(truncatingIfNeeded: key), UInt8(truncatingIfNeeded: key >> 8),
                                            UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 24)])
            }
            if palette.isEmpty { palette = [0, 0, 0, 255] }
        }

        /// PLTE and tRNS payloads for indexed output (tRNS trimmed after the
        /// last entry that is not opaque, PNG §11.3.2.1).
        var paletteChunks: (plte: [UInt8], trns: [UInt8]?) {
            var plte: [UInt8] = []
            var alpha: [UInt8] = []
            for i in stride(from: 0, to: palette.count, by: 4) {
                plte.append(contentsOf: palette[i..<(i + 3)])
                alpha.append(palette[i + 3])
            }
            while alpha.last == 255 { alpha.removeLast() }
            return (plte, alpha.isEmpty ? nil : alpha)
        }
    }
}
