/// Gaussian blur approximated by three successive box blurs on each axis
/// (W. M. Wells, "Efficient synthesis of Gaussian filters by cascaded uniform
/// filters", IEEE PAMI 8(2), 1986; box widths chosen as in P. Kovesi, "Fast
/// almost-Gaussian filtering", DICTA 2010), so the cost per pixel does not
/// grow with sigma.
///
/// Rows are blurred horizontally as they are read, then pass through three
/// vertical running-sum stages, each holding only the 2r + 2 rows its window
/// spans; memory stays a few hundred rows however large the image.
struct BoxBlurCascade {
    /// Box radii for the three passes.
    let radii: [Int]

    init(sigma: Double) {
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let upper = lower + 2
        let l = Double(lower)
        let m = ((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded()
        radii = (0..<3).map { Double($0) < m ? (lower - 1) / 2 : (upper - 1) / 2 }
    }

    /// Working memory in bytes for an image `width` pixels wide.
    func workingBytes(width: Int) -> Int {
        let rows = radii.reduce(0) { $0 + 2 * $1 + 3 } + 2
        return rows * (width + 2 * (radii.max() ?? 0) + 2) * MemoryLayout<SIMD4<Float>>.stride
    }

    func blur(_ source: PixelBuffer) -> PixelBuffer {
        let width = source.width, height = source.height
        let format = source.format
        var output = PixelBuffer(width: width, height: height, format: format)
        let table = SampleTables.toWorking(format: format, linear: false)
        let maxRadius = radii.max() ?? 0
        let lineLength = width + 2 * maxRadius + 2
        // One ring per vertical stage, holding that stage's input rows.
        let ringRows = radii.map { 2 * $0 + 2 }
        var storage = [SIMD4<Float>](repeating: SIMD4(), count: (ringRows.reduce(0, +) + 3) * width + 2 * lineLength)
        let rowBytes = source.bytesPerRow

        source.bytes.withUnsafeBytes { input in
            output.bytes.withUnsafeMutableBytes { out in
                storage.withUnsafeMutableBufferPointer { storage in
                    table.withUnsafeBufferPointer { table in
                        guard let input = input.baseAddress, let out = out.baseAddress,
                              let base = storage.baseAddress, let table = table.baseAddress else { return }
                        // Carve the storage: three rings, three running sums, two padded lines.
                        // Offsets add up to exactly the count allocated above.
                        var rings: [UnsafeMutablePointer<SIMD4<Float>>] = []
                        var offset = 0
                        for rows in ringRows { rings.append(base + offset); offset += rows * width }
                        let sums = (0..<3).map { base + offset + $0 * width }
                        offset += 3 * width
                        let lineA = base + offset, lineB = base + offset + lineLength
                        var stored = [0, 0, 0]      // rows held by each ring so far
                        var produced = [0, 0, 0]    // output rows of each stage so far

                        // Source row y, premultiplied, blurred horizontally three times, into `target`.
                        func horizontalRow(_ y: Int, into target: UnsafeMutablePointer<SIMD4<Float>>) {
                            WorkingPixels.load(input + y &* rowBytes, count: width, format: format, table: table, into: lineA)
                            var from = lineA, to = lineB
                            for r in radii {
                                Self.boxLine(from, count: width, radius: r, into: to)
                                swap(&from, &to)
                            }
                            target.update(from: from, count: width)
                        }

                        // Row `y` of stage k's input (the source after the horizontal passes for k = 0).
                        func inputRow(_ k: Int, _ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
                            rings[k] + (y % ringRows[k]) &* width
                        }

                        // Makes stage k's ring hold its input rows up to `last`.
                        func fill(_ k: Int, upTo last: Int) {
                            while stored[k] <= last {
                                let y = stored[k]
                                if k == 0 { horizontalRow(y, into: inputRow(0, y)) } else { stage(k - 1, into: inputRow(k, y)) }
                                stored[k] += 1
                            }
                        }

                        // The next output row of vertical stage k, a running mean over 2r + 1 rows
                        // with the edge rows repeated.
                        func stage(_ k: Int, into target: UnsafeMutablePointer<SIMD4<Float>>) {
                            let r = radii[k], y = produced[k], last = height - 1
                            fill(k, upTo: min(y + r, last))
                            let sum = sums[k]
                            if y == 0 {
                                sum.update(repeating: SIMD4(), count: width)
                                for t in -r...r {
                                    let row = inputRow(k, min(max(t, 0), last))
                                    for x in 0..<width { sum[x] += row[x] }
                                }
                            } else {
                                let entering = inputRow(k, min(y + r, last))
                                let leaving = inputRow(k, max(y - r - 1, 0))
                                for x in 0..<width { sum[x] += entering[x] - leaving[x] }
                            }
                            let scale = SIMD4<Float>(repeating: 1 / Float(2 * r + 1))
                            for x in 0..<width { target[x] = sum[x] * scale }
                            produced[k] += 1
                        }

                        for y in 0..<height {
                            stage(2, into: lineA)
                            WorkingPixels.store(lineA, count: width, format: format, linear: false, into: out + y &* rowBytes)
                        }
                    }
                }
            }
        }
        return output
    }

    /// A running-mean box of radius `radius` along one line, edges repeated.
    @inline(__always)
    private static func boxLine(_ source: UnsafePointer<SIMD4<Float>>, count: Int, radius r: Int,
                                into destination: UnsafeMutablePointer<SIMD4<Float>>) {
        let last = count - 1
        var sum = SIMD4<Float>()
        for t in -r...r { sum += source[min(max(t, 0), last)] }
        let scale = SIMD4<Float>(repeating: 1 / Float(2 * r + 1))
        destination[0] = sum * scale
        var x = 1
        while x < count {
            sum += source[min(x &+ r, last)] - source[max(x &- r &- 1, 0)]
            destination[x] = sum * scale
            x &+= 1
        }
    }
}
