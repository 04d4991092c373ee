/// Separable two-pass resampling of a rectangle of a ``PixelBuffer``.
///
/// 1. Each source row is converted to premultiplied `SIMD4<Float>` (through
///    the sRGB → linear table when asked) and, when the reduction is large,
///    box-averaged by an integer factor first (see ``reductionFactor(input:output:gap:)``).
/// 2. A horizontal pass convolves that row with the per-output-column weights
///    into an intermediate image `outputWidth` wide.
/// 3. A vertical pass combines intermediate rows, row-wide, into each output
///    row, which is un-premultiplied and quantised back to the source format.
///
/// Only one converted source row and the (already narrow) intermediate image
/// are ever held, so memory stays proportional to the output width.
struct Resampler {
    var filter: ResamplingFilter
    var linearLight: Bool
    /// When non-nil, source boxes of ⌊ratio / gap⌋ pixels per axis are averaged
    /// before filtering, leaving at least `gap`× reduction for the filter.
    var reducingGap: Double?
    var limits: DecodingLimits

    /// The integer box factor for reducing `input` pixels to `output`.
    static func reductionFactor(input: Int, output: Int, gap: Double?) -> Int {
        guard let gap, gap >= 1, output > 0 else { return 1 }
        let ratio = Double(input) / Double(output) / gap
        return ratio >= 2 ? Int(ratio) : 1
    }

    /// Resamples `source`'s rectangle (`x`, `y`, `width`, `height`, already
    /// validated to lie inside it) to `outputWidth` × `outputHeight`.
    func resample(_ source: PixelBuffer, x x0: Int, y y0: Int, width rectWidth: Int, height rectHeight: Int,
                  outputWidth: Int, outputHeight: Int) throws(TransformError) -> PixelBuffer {
        let kx = Self.reductionFactor(input: rectWidth, output: outputWidth, gap: reducingGap)
        let ky = Self.reductionFactor(input: rectHeight, output: outputHeight, gap: reducingGap)
        let workWidth = (rectWidth + kx - 1) / kx
        let workHeight = (rectHeight + ky - 1) / ky
        guard outputWidth <= limits.maxWidth else { throw .limitExceeded(.width) }
        guard outputHeight <= limits.maxHeight else { throw .limitExceeded(.height) }
        // Both factors are now bounded (32 768 by default; the source row by its own size).
        let simdSize = MemoryLayout<SIMD4<Float>>.stride
        let working = (outputWidth &* workHeight &+ workWidth &+ outputWidth) &* simdSize
        try limits.checkTransformOutput(width: outputWidth, height: outputHeight, format: source.format,
                                        workingBytes: working)

        let horizontal = WeightTable(inputSize: workWidth, inputExtent: Double(rectWidth) / Double(kx),
                                     outputSize: outputWidth, filter: filter)
        let vertical = WeightTable(inputSize: workHeight, inputExtent: Double(rectHeight) / Double(ky),
                                   outputSize: outputHeight, filter: filter)
        var intermediate = [SIMD4<Float>](repeating: SIMD4(), count: outputWidth * workHeight)
        var row = [SIMD4<Float>](repeating: SIMD4(), count: workWidth)
        let format = source.format
        let bytesPerPixel = format.bytesPerPixel
        let sourceRowBytes = source.bytesPerRow
        let table = SampleTables.toWorking(format: format, linear: linearLight)

        // Pass 1 (+ optional box reduction): source rows → intermediate.
        // Every pointer below comes from a scoped closure over an array sized
        // above; indices stay inside the validated rectangle and the tables' runs.
        source.bytes.withUnsafeBytes { sourceBytes in
            table.withUnsafeBufferPointer { table in
                row.withUnsafeMutableBufferPointer { row in
                    intermediate.withUnsafeMutableBufferPointer { intermediate in
                        guard let base = sourceBytes.baseAddress, let table = table.baseAddress,
                              let row = row.baseAddress, let out = intermediate.baseAddress else { return }
                        let rectOffset = x0 &* bytesPerPixel
                        for j in 0..<workHeight {
                            let firstRow = y0 &+ j &* ky
                            let endRow = min(firstRow &+ ky, y0 &+ rectHeight)
                            if kx == 1 && ky == 1 {
                                WorkingPixels.load(base + (firstRow &* sourceRowBytes &+ rectOffset), count: rectWidth,
                                                   format: format, table: table, into: row)
                            } else {
                                row.update(repeating: SIMD4(), count: workWidth)
                                for sy in firstRow..<endRow {
                                    WorkingPixels.accumulateBoxes(base + (sy &* sourceRowBytes &+ rectOffset),
                                                                  count: rectWidth, factor: kx, format: format,
                                                                  table: table, into: row)
                                }
                                Self.normaliseBoxes(row, count: workWidth, width: rectWidth, factor: kx,
                                                    rows: endRow &- firstRow)
                            }
                            Self.convolveRow(row, horizontal, into: out + j &* outputWidth)
                        }
                    }
                }
            }
        }

        // Pass 2: intermediate columns → output rows.
        var output = PixelBuffer(width: outputWidth, height: outputHeight, format: format)
        var accumulator = [SIMD4<Float>](repeating: SIMD4(), count: outputWidth)
        let outputRowBytes = output.bytesPerRow
        let linear = linearLight
        intermediate.withUnsafeBufferPointer { intermediate in
            accumulator.withUnsafeMutableBufferPointer { accumulator in
                output.bytes.withUnsafeMutableBytes { outputBytes in
                    vertical.weights.withUnsafeBufferPointer { weights in
                        guard let source = intermediate.baseAddress, let acc = accumulator.baseAddress,
                              let destination = outputBytes.baseAddress, let weights = weights.baseAddress else { return }
                        for y in 0..<outputHeight {
                            let start = vertical.starts[y], count = vertical.counts[y]
                            let w = weights + y &* vertical.stride
                            acc.update(repeating: SIMD4(), count: outputWidth)
                            for t in 0..<count {
                                let weight = SIMD4<Float>(repeating: w[t])
                                let sourceRow = source + (start &+ t) &* outputWidth
                                for x in 0..<outputWidth {
                                    acc[x] += weight * sourceRow[x]
                                }
                            }
                            WorkingPixels.store(acc, count: outputWidth, format: format, linear: linear,
                                                into: destination + y &* outputRowBytes)
                        }
                    }
                }
            }
        }
        return output
    }

    /// Divides each box sum by the number of source pixels it holds.
    @inline(__always)
    private static func normaliseBoxes(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, width: Int,
                                       factor: Int, rows: Int) {
        let full = SIMD4<Float>(repeating: 1 / Float(factor &* rows))
        for i in 0..<count {
            let columns = min(factor, width &- i &* factor)
            row[i] *= columns == factor ? full : SIMD4(repeating: 1 / Float(columns &* rows))
        }
    }

    /// One row through the horizontal weights.
    @inline(__always)
    private static func convolveRow(_ row: UnsafePointer<SIMD4<Float>>, _ table: WeightTable,
                                    into destination: UnsafeMutablePointer<SIMD4<Float>>) {
        table.weights.withUnsafeBufferPointer { weights in
            table.starts.withUnsafeBufferPointer { starts in
                table.counts.withUnsafeBufferPointer { counts in
                    guard let weights = weights.baseAddress else { return }
                    // Runs were clamped to the row when the table was built.
                    for i in 0..<starts.count {
                        destination[i] = WorkingPixels.weightedSum(weights + i &* table.stride, row + starts[i],
                                                                   count: counts[i])
                    }
                }
            }
        }
    }
}
