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
/// are ever held, so memory stays proportional to the output width; rows can
/// also be fed one by one as a decoder produces them (``Stream``).
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
        // Only the rectangle's rows are passed, so the stream's rectangle starts at its row 0.
        var stream = try Stream(self, format: source.format, x: x0, y: 0, width: rectWidth, height: rectHeight,
                                outputWidth: outputWidth, outputHeight: outputHeight)
        let rowBytes = source.bytesPerRow
        source.bytes.withUnsafeBytes { bytes in
            // `checkTransformable` (by the caller) made `bytes` exactly `height` rows of `rowBytes`.
            guard let base = bytes.baseAddress else { return }
            stream.append(rows: base + y0 &* rowBytes, count: rectHeight, bytesPerRow: rowBytes)
        }
        return stream.finish()
    }

    /// Divides each box sum by the number of source pixels it holds.
    @inline(__always)
    static func normaliseBoxes(_ row: UnsafeMutablePointer<SIMD4<Float>>, count: Int, width: Int,
                               factor: Int, rows: Int) {
        let full = SIMD4<Float>(repeating: 1 / Float(factor &* rows))
        for i in 0..<count {
            let columns = min(factor, width &- i &* factor)
            row[i] *= columns == factor ? full : SIMD4(repeating: 1 / Float(columns &* rows))
        }
    }

    /// One row through the horizontal weights.
    @inline(__always)
    static func convolveRow(_ row: UnsafePointer<SIMD4<Float>>, _ table: WeightTable,
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
