extension WebP {
    /// Undoes a main image's transforms one row at a time, in reverse of the order
    /// they were read (RFC 9649 §4), while the entropy decoder is still producing
    /// later rows, so that each coded row is transformed while it is in cache
    /// (libwebp works the same way, in batches of rows).
    ///
    /// The coded pixels are only read (LZ77 references still need them); each
    /// stage writes into one of two scratch rows, except the predictor, which
    /// keeps its own output and previous output rows because it predicts from
    /// the row above as it was before the later stages changed it.
    struct LosslessRowPipeline {
        private let transforms: [LosslessTransform]
        private let codedWidth: Int
        private let width: Int
        /// Rows A and B, then the predictor's current and previous rows, each
        /// `width + 1` pixels (the predictor's previous row has one pixel more).
        private var scratch: [UInt32]
        private var predictorCurrent = 2
        private var predictorPrevious = 3
        /// Rows already handed to the sink.
        private(set) var rowsDone = 0
        /// The last step, adding green back to red and blue, is left to the sink, which
        /// does it as it stores the row (it leaves green, hence alpha planes, alone).
        let leavesSubtractGreen: Bool

        /// `transforms` in the order read; `codedWidth` is the entropy-coded width.
        init(transforms: [LosslessTransform], codedWidth: Int, width: Int) {
            var undoOrder = Array(transforms.reversed())
            leavesSubtractGreen = undoOrder.last?.kind == .subtractGreen
            if leavesSubtractGreen { undoOrder.removeLast() }
            self.transforms = undoOrder
            self.codedWidth = codedWidth
            self.width = width
            scratch = [UInt32](repeating: 0, count: self.transforms.isEmpty ? 0 : 4 * (width + 1))
        }

        /// Bytes of scratch it allocates, for the limits check.
        static func scratchBytes(width: Int) -> Int { 16 * (width + 1) }

        /// Transforms the rows from ``rowsDone`` up to `rows` of `coded` and hands
        /// each ARGB row (`width` pixels) to `sink` with its index: final, except for
        /// adding green when ``leavesSubtractGreen``.
        mutating func process(upTo rows: Int, coded: UnsafePointer<UInt32>,
                              sink: (Int, UnsafePointer<UInt32>) -> Void) {
            guard rows > rowsDone else { return }
            if transforms.isEmpty {
                for y in rowsDone..<rows { sink(y, coded + y * codedWidth) }
                rowsDone = rows
                return
            }
            let stride = width + 1
            var current = predictorCurrent
            var previous = predictorPrevious
            let first = rowsDone
            scratch.withUnsafeMutableBufferPointer { scratch in
                // Safe: scratch holds four rows of width + 1 pixels; every stage's width is at most width.
                guard let base = scratch.baseAddress else { return }
                for y in first..<rows {
                    var source = UnsafePointer(coded + y * codedWidth)
                    var next = base
                    for transform in transforms {
                        switch transform.kind {
                        case .predictor:
                            let target = base + current * stride
                            transform.undoPredictor(row: y, source, target, up: base + previous * stride)
                            source = UnsafePointer(target)
                        case .crossColor:
                            transform.undoCrossColor(row: y, source, next)
                            source = UnsafePointer(next)
                            next = next == base ? base + stride : base
                        case .subtractGreen:
                            LosslessTransform.undoSubtractGreen(source, next, count: transform.width)
                            source = UnsafePointer(next)
                            next = next == base ? base + stride : base
                        case .colorIndexing:
                            transform.undoColorIndexing(source, next)
                            source = UnsafePointer(next)
                            next = next == base ? base + stride : base
                        }
                    }
                    sink(y, source)
                    swap(&current, &previous)
                }
            }
            predictorCurrent = current
            predictorPrevious = previous
            rowsDone = rows
        }
    }
}
