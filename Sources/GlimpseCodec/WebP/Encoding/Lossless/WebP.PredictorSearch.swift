extension WebP {
    /// The forward predictor transform (RFC 9649 §4.1): per tile of `1 << bits`
    /// pixels a side, the mode among those tried whose residuals cost the fewest
    /// bits under the residual statistics of the tiles chosen so far.
    enum PredictorSearch {
        /// The residual image and the mode image (`0xff000000 | mode << 8` per tile).
        static func apply(_ argb: [UInt32], width: Int, height: Int, bits: Int,
                          modes: [Int]) -> (residuals: [UInt32], modes: [UInt32]) {
            let tilesWide = subsampledSize(width, bits)
            let tilesHigh = subsampledSize(height, bits)
            var modeImage = [UInt32](repeating: 0xff00_0000 | 11 << 8, count: tilesWide * tilesHigh)
            var residuals = [UInt32](repeating: 0, count: argb.count)
            // Per channel (A, R, G, B) 256 counts: the tile under test and all chosen so far.
            var tileCounts = [UInt32](repeating: 0, count: 4 * 256)
            var accumulated = [UInt32](repeating: 0, count: 4 * 256)
            let tile = 1 << bits
            argb.withUnsafeBufferPointer { pixels in
                for ty in 0..<tilesHigh {
                    let y0 = ty * tile, y1 = min(height, y0 + tile)
                    for tx in 0..<tilesWide {
                        let x0 = tx * tile, x1 = min(width, x0 + tile)
                        var bestMode = modes.first ?? 11
                        if modes.count > 1 {
                            var bestCost = Double.infinity
                            for mode in modes {
                                for index in tileCounts.indices { tileCounts[index] = 0 }
                                for y in y0..<y1 {
                                    for x in x0..<x1 {
                                        let residual = subtractPixels(pixels[y * width + x],
                                                                      prediction(mode, pixels, x, y, width))
                                        tileCounts[Int(residual >> 24)] += 1
                                        tileCounts[256 + Int((residual >> 16) & 0xff)] += 1
                                        tileCounts[512 + Int((residual >> 8) & 0xff)] += 1
                                        tileCounts[768 + Int(residual & 0xff)] += 1
                                    }
                                }
                                var cost = 0.0
                                tileCounts.withUnsafeBufferPointer { t in
                                    accumulated.withUnsafeBufferPointer { a in
                                        // Both hold 4 × 256 counts.
                                        for channel in 0..<4 {
                                            cost += Log2Table.combinedBits(t, a, offset: channel * 256, count: 256)
                                            cost -= smallResidualBonus(t, offset: channel * 256)
                                        }
                                    }
                                }
                                if cost < bestCost {
                                    bestCost = cost
                                    bestMode = mode
                                }
                            }
                        }
                        modeImage[ty * tilesWide + tx] = 0xff00_0000 | UInt32(bestMode) << 8
                        for y in y0..<y1 {
                            for x in x0..<x1 {
                                let residual = subtractPixels(pixels[y * width + x], prediction(bestMode, pixels, x, y, width))
                                residuals[y * width + x] = residual
                                accumulated[Int(residual >> 24)] += 1
                                accumulated[256 + Int((residual >> 16) & 0xff)] += 1
                                accumulated[512 + Int((residual >> 8) & 0xff)] += 1
                                accumulated[768 + Int(residual & 0xff)] += 1
                            }
                        }
                    }
                }
            }
            return (residuals, modeImage)
        }

        /// A bonus for residuals near zero, decaying with their size: among modes
        /// of about equal entropy, the one that predicts closer leaves smoother
        /// statistics for the tiles after it (libwebp's spatial prediction bias).
        @inline(__always)
        private static func smallResidualBonus(_ counts: UnsafeBufferPointer<UInt32>, offset: Int) -> Double {
            var bonus = Double(counts[offset])
            var weight = 0.94
            for value in 1..<16 {
                // Safe: offset + 255 is the channel's last count.
                bonus += weight * Double(counts[offset + value] + counts[offset + 256 - value])
                weight *= 0.6
            }
            return 0.1 * bonus
        }

        /// The prediction of pixel (x, y) as the decoder forms it: opaque black at
        /// the origin, L along the top row, T down the left column, `mode` elsewhere.
        /// T R of the last column is the row's first pixel, where it lies in memory.
        @inline(__always)
        static func prediction(_ mode: Int, _ pixels: UnsafeBufferPointer<UInt32>, _ x: Int, _ y: Int, _ width: Int) -> UInt32 {
            let index = y * width + x
            if y == 0 { return x == 0 ? 0xff00_0000 : pixels[index - 1] }
            if x == 0 { return pixels[index - width] }
            // Safe: x, y ≥ 1, so every neighbour (T R at most the current row's first pixel) precedes `index`.
            let left = pixels[index - 1]
            let top = pixels[index - width]
            let topLeft = pixels[index - width - 1]
            let topRight = pixels[index - width + 1]
            typealias T = LosslessTransform
            switch mode {
            case 1: return left
            case 2: return top
            case 3: return topRight
            case 4: return topLeft
            case 5: return T.average(T.average(left, topRight), top)
            case 6: return T.average(left, topLeft)
            case 7: return T.average(left, top)
            case 8: return T.average(topLeft, top)
            case 9: return T.average(top, topRight)
            case 10: return T.average(T.average(left, topLeft), T.average(top, topRight))
            case 11: return T.select(top: top, left: left, topLeft: topLeft)
            case 12: return T.clampAddSubtractFull(left, top, topLeft)
            case 13: return T.clampAddSubtractHalf(T.average(left, top), topLeft)
            default: return 0xff00_0000
            }
        }

        /// Per-channel subtraction modulo 256.
        @inline(__always)
        static func subtractPixels(_ a: UInt32, _ b: UInt32) -> UInt32 {
            let alphaGreen = 0x00ff_00ff &+ (a & 0xff00_ff00) &- (b & 0xff00_ff00)
            let redBlue = 0xff00_ff00 &+ (a & 0x00ff_00ff) &- (b & 0x00ff_00ff)
            return (alphaGreen & 0xff00_ff00) | (redBlue & 0x00ff_00ff)
        }
    }
}
