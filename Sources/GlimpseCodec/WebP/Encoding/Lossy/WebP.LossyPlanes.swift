/// The Y, U and V planes a lossy frame is coded from (RFC 6386 §2: 8-bit
/// 4:2:0, BT.601 limited range, the matrix libwebp's decoder inverts), padded
/// to whole macroblocks by repeating the last column and row.
///
/// Chroma is averaged over each 2×2 block in linear light (the sRGB transfer
/// function of IEC 61966-2-1), each pixel weighted by its alpha, and only then
/// turned back into gamma-encoded R′G′B′ for the matrix. Averaging gamma-encoded
/// values instead darkens edges between saturated colours; libwebp's default
/// path approximates the same idea with a 0.8 power curve, and weights by alpha too.
extension WebP {
    struct LossyPlanes {
        let width: Int
        let height: Int
        /// Padded sizes: 16 × macroblock columns and rows for luma, half for chroma.
        let lumaWidth: Int
        let lumaHeight: Int
        var chromaWidth: Int { lumaWidth / 2 }
        var chromaHeight: Int { lumaHeight / 2 }
        var y: [UInt8]
        var u: [UInt8]
        var v: [UInt8]

        /// Fixed-point BT.601 limited-range coefficients, 16 fractional bits:
        /// Y = 16 + (219/255)(0.299 R + 0.587 G + 0.114 B), U and V scaled by 224/255.
        private static func coefficient(_ c: Double) -> Int { Int((c * 65536).rounded()) }
        private static let yR = coefficient(0.299 * 219 / 255), yG = coefficient(0.587 * 219 / 255)
        private static let yB = coefficient(0.114 * 219 / 255)
        private static let uR = coefficient(-0.299 / 1.772 * 224 / 255), uG = coefficient(-0.587 / 1.772 * 224 / 255)
        private static let uB = coefficient(0.886 / 1.772 * 224 / 255)
        private static let vR = coefficient(0.701 / 1.402 * 224 / 255), vG = coefficient(-0.587 / 1.402 * 224 / 255)
        private static let vB = coefficient(-0.114 / 1.402 * 224 / 255)

        /// 8-bit sRGB sample → linear light in 0…65535.
        private static let toLinear: [Int32] = (0..<256).map {
            Int32((SampleTables.linear(fromSRGB: Double($0) / 255) * 65535).rounded())
        }
        /// Linear light in 4096 steps → sRGB sample ×4 (two fractional bits for the chroma matrix).
        private static let fromLinear: [Int32] = (0..<4096).map {
            Int32((SampleTables.sRGB(fromLinear: Double($0) / 4095) * 255 * 4).rounded())
        }

        /// Converts `width`×`height` RGBA8 pixels (alpha only weights the chroma average).
        init(rgba: [UInt8], width: Int, height: Int) {
            self.width = width
            self.height = height
            lumaWidth = (width + 15) & ~15
            lumaHeight = (height + 15) & ~15
            y = [UInt8](repeating: 0, count: lumaWidth * lumaHeight)
            u = [UInt8](repeating: 0, count: lumaWidth * lumaHeight / 4)
            v = u
            convertLuma(rgba)
            convertChroma(rgba)
        }

        private mutating func convertLuma(_ rgba: [UInt8]) {
            let yR = Self.yR, yG = Self.yG, yB = Self.yB
            for row in 0..<lumaHeight {
                let sourceRow = min(row, height - 1) * width
                for column in 0..<lumaWidth {
                    let p = (sourceRow + min(column, width - 1)) * 4
                    let value = yR * Int(rgba[p]) + yG * Int(rgba[p + 1]) + yB * Int(rgba[p + 2]) + (16 << 16) + (1 << 15)
                    y[row * lumaWidth + column] = UInt8(truncatingIfNeeded: value >> 16)
                }
            }
        }

        private mutating func convertChroma(_ rgba: [UInt8]) {
            let toLinear = Self.toLinear, fromLinear = Self.fromLinear
            let stride = chromaWidth
            let usedWidth = (width + 1) / 2, usedHeight = (height + 1) / 2
            for cy in 0..<usedHeight {
                for cx in 0..<usedWidth {
                    var sum = (Int64(0), Int64(0), Int64(0)), weight = Int64(0)
                    var plain = (0, 0, 0)
                    for dy in 0..<2 {
                        let sy = min(2 * cy + dy, height - 1)
                        for dx in 0..<2 {
                            let p = (sy * width + min(2 * cx + dx, width - 1)) * 4
                            let a = Int64(rgba[p + 3])
                            sum.0 += a * Int64(toLinear[Int(rgba[p])])
                            sum.1 += a * Int64(toLinear[Int(rgba[p + 1])])
                            sum.2 += a * Int64(toLinear[Int(rgba[p + 2])])
                            weight += a
                            plain.0 += Int(toLinear[Int(rgba[p])])
                            plain.1 += Int(toLinear[Int(rgba[p + 1])])
                            plain.2 += Int(toLinear[Int(rgba[p + 2])])
                        }
                    }
                    // Linear 0…65535 → table index 0…4095, rounded; a fully transparent block averages plainly.
                    func gamma(_ linearSum: Int64, _ total: Int64) -> Int {
                        Int(fromLinear[Int((linearSum * 4095 + total * 32767) / (total * 65535))])
                    }
                    let r4: Int, g4: Int, b4: Int
                    if weight > 0 {
                        (r4, g4, b4) = (gamma(sum.0, weight), gamma(sum.1, weight), gamma(sum.2, weight))
                    } else {
                        (r4, g4, b4) = (gamma(Int64(plain.0), 4), gamma(Int64(plain.1), 4), gamma(Int64(plain.2), 4))
                    }
                    let rounding = (128 << 18) + (1 << 17)
                    let uValue = (Self.uR * r4 + Self.uG * g4 + Self.uB * b4 + rounding) >> 18
                    let vValue = (Self.vR * r4 + Self.vG * g4 + Self.vB * b4 + rounding) >> 18
                    u[cy * stride + cx] = UInt8(clamping: uValue)
                    v[cy * stride + cx] = UInt8(clamping: vValue)
                }
                for cx in usedWidth..<stride {
                    u[cy * stride + cx] = u[cy * stride + usedWidth - 1]
                    v[cy * stride + cx] = v[cy * stride + usedWidth - 1]
                }
            }
            for cy in usedHeight..<chromaHeight {
                for cx in 0..<stride {
                    u[cy * stride + cx] = u[(usedHeight - 1) * stride + cx]
                    v[cy * stride + cx] = v[(usedHeight - 1) * stride + cx]
                }
            }
        }
    }
}
