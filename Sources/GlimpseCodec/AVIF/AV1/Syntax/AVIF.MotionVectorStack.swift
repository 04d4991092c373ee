extension AVIF {
    /// `RefStackMv[idx][0]`, `WeightStack[idx]` and `NumMvFound` of the find MV stack process
    /// (AV1 §7.10.2) for single prediction, the only kind an intra frame has. Kept by the tile
    /// decoder between blocks, so a block's search allocates nothing.
    struct MotionVectorStack: Sendable {
        /// `MAX_REF_MV_STACK_SIZE`.
        static let capacity = AV1Tables.MAX_REF_MV_STACK_SIZE
        /// `RefStackMv[idx][0]`: row at `2 * idx`, column at `2 * idx + 1`, in 1/8 luma sample.
        private(set) var mvs = [Int](repeating: 0, count: 2 * capacity)
        /// `WeightStack[idx]`.
        private(set) var weights = [Int](repeating: 0, count: capacity)
        /// `NumMvFound`.
        private(set) var count = 0

        init() {}

        /// `RefStackMv[idx][0]` (row, column).
        func mv(_ idx: Int) -> (row: Int, col: Int) { (mvs[2 * idx], mvs[2 * idx + 1]) }

        /// Empties the stack (steps 1 and 2 of §7.10.2).
        mutating func removeAll() { count = 0 }

        /// The search stack process (§7.10.2.8) for a candidate already through the lower
        /// precision process: adds `weight` to an equal entry, else appends the candidate
        /// while there is room.
        mutating func add(_ mv: (row: Int, col: Int), weight: Int) {
            for idx in 0..<count where mvs[2 * idx] == mv.row && mvs[2 * idx + 1] == mv.col {
                weights[idx] += weight
                return
            }
            guard count < Self.capacity else { return }
            mvs[2 * count] = mv.row
            mvs[2 * count + 1] = mv.col
            weights[count] = weight
            count += 1
        }

        /// Step 6 of §7.10.2: the nearest candidates outrank every later one.
        mutating func addWeight(_ weight: Int, below end: Int) {
            for idx in 0..<min(end, count) { weights[idx] += weight }
        }

        /// The sorting process (§7.10.2.11): a stable bubble sort of entries `start..<end` by
        /// falling weight (the specification's order of swaps, so equal weights keep their order).
        mutating func sort(_ start: Int, _ end: Int) {
            var end = min(end, count)
            while end > start {
                var newEnd = start
                for idx in (start + 1)..<max(start + 1, end) where weights[idx - 1] < weights[idx] {
                    weights.swapAt(idx - 1, idx)
                    mvs.swapAt(2 * idx - 2, 2 * idx)
                    mvs.swapAt(2 * idx - 1, 2 * idx + 1)
                    newEnd = idx
                }
                end = newEnd
            }
        }

        /// The single-prediction end of the extra search process (§7.10.2.12): entries up to
        /// index 1 that no candidate filled take `globalMv`, without counting in `NumMvFound`.
        mutating func fill(upTo end: Int, with globalMv: (row: Int, col: Int)) {
            for idx in count..<min(end, Self.capacity) {
                mvs[2 * idx] = globalMv.row
                mvs[2 * idx + 1] = globalMv.col
            }
        }

        /// The clamping of the context and clamping process (§7.10.2.14), entry by entry.
        mutating func clamp(rows: ClosedRange<Int>, cols: ClosedRange<Int>) {
            for idx in 0..<count {
                mvs[2 * idx] = AV1Arithmetic.clip3(rows.lowerBound, rows.upperBound, mvs[2 * idx])
                mvs[2 * idx + 1] = AV1Arithmetic.clip3(cols.lowerBound, cols.upperBound, mvs[2 * idx + 1])
            }
        }
    }
}
