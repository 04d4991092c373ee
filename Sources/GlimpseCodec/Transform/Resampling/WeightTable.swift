/// Precomputed filter weights for one axis of a resize: for every output
/// pixel, the first contributing input pixel and the normalised weights of the
/// contiguous run that follows.
///
/// Built once per axis, so the convolution loops only multiply and add.
struct WeightTable: Sendable {
    /// First contributing input index for each output pixel.
    private(set) var starts: [Int]
    /// Number of contributing input pixels for each output pixel (≤ ``stride``).
    private(set) var counts: [Int]
    /// `outputSize × stride` weights; entries past `counts[i]` are zero.
    private(set) var weights: [Float]
    /// Weights stored per output pixel.
    let stride: Int

    /// - Parameters:
    ///   - inputSize: pixels available on this axis.
    ///   - inputExtent: the length, in input pixels, that maps onto the output
    ///     (equal to `inputSize` except after a box pre-reduction whose last
    ///     box was partial).
    ///   - outputSize: pixels produced.
    init(inputSize: Int, inputExtent: Double, outputSize: Int, filter: ResamplingFilter) {
        let scale = inputExtent / Double(outputSize)
        if inputSize == outputSize && scale == 1 {
            // An axis that does not change: one tap of weight 1 each.
            stride = 1
            starts = Array(0..<outputSize)
            counts = Array(repeating: 1, count: outputSize)
            weights = Array(repeating: 1, count: outputSize)
            return
        }
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        // Widest possible run; `+ 2` covers the rounding at both ends.
        stride = Int(support * 2) + 2
        starts = Array(repeating: 0, count: outputSize)
        counts = Array(repeating: 0, count: outputSize)
        weights = Array(repeating: 0, count: outputSize * stride)
        let last = inputSize - 1
        for i in 0..<outputSize {
            let center = (Double(i) + 0.5) * scale
            // Input pixel j (centre j + ½) contributes when |j + ½ − center| < support.
            var low = Int((center - support - 0.5).rounded(.up))
            var high = Int((center + support - 0.5).rounded(.down))
            low = min(max(low, 0), last)
            high = min(max(high, low), last)
            high = min(high, low + stride - 1)
            var sum = 0.0
            var run = [Double](repeating: 0, count: high - low + 1)
            for j in low...high {
                let w = filter.weight((Double(j) + 0.5 - center) / filterScale)
                run[j - low] = w
                sum += w
            }
            if sum == 0 {
                // Possible only for the box filter exactly between two pixels: take the nearest.
                let nearest = min(max(Int(center), low), high)
                run = [Double](repeating: 0, count: run.count)
                run[nearest - low] = 1
                sum = 1
            }
            // Trim zero weights at both ends so the loops do no useless taps.
            var first = 0, end = run.count
            while first < end - 1 && run[first] == 0 { first += 1 }
            while end - 1 > first && run[end - 1] == 0 { end -= 1 }
            starts[i] = low + first
            counts[i] = end - first
            for k in first..<end {
                weights[i * stride + k - first] = Float(run[k] / sum)
            }
        }
    }
}
