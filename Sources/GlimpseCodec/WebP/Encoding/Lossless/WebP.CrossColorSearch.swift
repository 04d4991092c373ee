extension WebP {
    /// The forward colour transform (RFC 9649 §4.2): per tile, the multipliers
    /// green→red, green→blue and red→blue that leave the cheapest red and blue
    /// residuals, each found by a coarse-to-fine search (steps 32, 16 … 1 around
    /// the best so far, as libwebp searches), favouring the left and upper
    /// tiles' values, which code for almost nothing in the transform image.
    enum CrossColorSearch {
        static func apply(_ argb: inout [UInt32], width: Int, height: Int, bits: Int) -> [UInt32] {
            let tilesWide = subsampledSize(width, bits)
            let tilesHigh = subsampledSize(height, bits)
            var elements = [UInt32](repeating: 0xff00_0000, count: tilesWide * tilesHigh)
            var accumulatedRed = [UInt32](repeating: 0, count: 256)
            var accumulatedBlue = [UInt32](repeating: 0, count: 256)
            let tile = 1 << bits
            var greens: [Int32] = []
            var reds: [Int32] = []
            var blues: [Int32] = []
            for ty in 0..<tilesHigh {
                let y0 = ty * tile, y1 = min(height, y0 + tile)
                for tx in 0..<tilesWide {
                    let x0 = tx * tile, x1 = min(width, x0 + tile)
                    greens.removeAll(keepingCapacity: true)
                    reds.removeAll(keepingCapacity: true)
                    blues.removeAll(keepingCapacity: true)
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let pixel = argb[y * width + x]
                            greens.append(Int32(Int8(truncatingIfNeeded: pixel >> 8)))
                            reds.append(Int32(Int8(truncatingIfNeeded: pixel >> 16)))
                            blues.append(Int32(pixel & 0xff))
                        }
                    }
                    let left = tx > 0 ? elements[ty * tilesWide + tx - 1] : nil
                    let above = ty > 0 ? elements[(ty - 1) * tilesWide + tx] : nil
                    func neighbourBonus(_ value: Int32, _ shift: UInt32) -> Double {
                        let byte = UInt32(UInt8(truncatingIfNeeded: value))
                        if let left, (left >> shift) & 0xff == byte { return -3 }
                        if let above, (above >> shift) & 0xff == byte { return -2 }
                        return 0
                    }

                    var histogram = [UInt32](repeating: 0, count: 256)
                    func redCost(_ greenToRed: Int32) -> Double {
                        for index in 0..<256 { histogram[index] = 0 }
                        for index in greens.indices {
                            let red = UInt8(truncatingIfNeeded: reds[index] &- ((greenToRed &* greens[index]) >> 5))
                            histogram[Int(red)] += 1
                        }
                        return cost(histogram, accumulatedRed) + neighbourBonus(greenToRed, 0)
                    }
                    func blueCost(_ greenToBlue: Int32, _ redToBlue: Int32) -> Double {
                        for index in 0..<256 { histogram[index] = 0 }
                        for index in greens.indices {
                            let blue = blues[index] &- ((greenToBlue &* greens[index]) >> 5) &- ((redToBlue &* reds[index]) >> 5)
                            histogram[Int(UInt8(truncatingIfNeeded: blue))] += 1
                        }
                        return cost(histogram, accumulatedBlue) + neighbourBonus(greenToBlue, 8) + neighbourBonus(redToBlue, 16)
                    }
                    let greenToRed = descend { redCost($0) }
                    var greenToBlue = descend { blueCost($0, 0) }
                    let redToBlue = descend { blueCost(greenToBlue, $0) }
                    greenToBlue = descend(from: greenToBlue) { blueCost($0, redToBlue) }

                    elements[ty * tilesWide + tx] = 0xff00_0000 | UInt32(UInt8(truncatingIfNeeded: redToBlue)) << 16
                        | UInt32(UInt8(truncatingIfNeeded: greenToBlue)) << 8 | UInt32(UInt8(truncatingIfNeeded: greenToRed))
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let pixel = argb[y * width + x]
                            let green = Int32(Int8(truncatingIfNeeded: pixel >> 8))
                            let red = Int32(Int8(truncatingIfNeeded: pixel >> 16))
                            let newRed = UInt32(UInt8(truncatingIfNeeded: Int32((pixel >> 16) & 0xff) &- ((greenToRed &* green) >> 5)))
                            let newBlue = UInt32(UInt8(truncatingIfNeeded: Int32(pixel & 0xff)
                                &- ((greenToBlue &* green) >> 5) &- ((redToBlue &* red) >> 5)))
                            argb[y * width + x] = (pixel & 0xff00_ff00) | newRed << 16 | newBlue
                            accumulatedRed[Int(newRed)] += 1
                            accumulatedBlue[Int(newBlue)] += 1
                        }
                    }
                }
            }
            return elements
        }

        private static func cost(_ tile: [UInt32], _ accumulated: [UInt32]) -> Double {
            tile.withUnsafeBufferPointer { t in
                accumulated.withUnsafeBufferPointer { a in Log2Table.combinedBits(t, a, offset: 0, count: 256) }
            }
        }

        /// The multiplier in −128…127 minimising `cost`, searched around `start`.
        private static func descend(from start: Int32 = 0, _ cost: (Int32) -> Double) -> Int32 {
            var best = start
            var bestCost = cost(start)
            var step: Int32 = 32
            while step >= 1 {
                for candidate in [best - step, best + step] where candidate >= -128 && candidate <= 127 {
                    let value = cost(candidate)
                    if value < bestCost {
                        bestCost = value
                        best = candidate
                    }
                }
                step /= 2
            }
            return best
        }
    }
}
