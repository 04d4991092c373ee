extension AVIF {
    /// One plane of a decoded AV1 frame: the specification's `CurrFrame[ plane ]` (and the
    /// `CdefFrame`, `UpscaledCurrFrame`, `LrFrame` arrays of §7.15–§7.17), samples of 8 to 12
    /// bits stored as `UInt16`, row-major with `stride` samples per row.
    ///
    /// Indexing is safe: reading outside the plane gives 0 and writing outside it is ignored,
    /// so no coordinate derived from a stream can trap. The decoding primitives check a whole
    /// block's rectangle once (``contains(x:y:width:height:)``) and then index directly.
    struct AV1Plane: Sendable, Equatable {
        /// Samples per row that may be addressed.
        let width: Int
        /// Rows that may be addressed.
        let height: Int
        /// Distance in samples between the starts of two rows (equal to `width`).
        let stride: Int
        /// `width` × `height` samples, row `y` starting at `y * stride`.
        var samples: [UInt16]

        /// A plane of `width` × `height` samples, each `value` (negative sizes give an empty plane).
        init(width: Int, height: Int, value: UInt16 = 0) {
            let w = max(0, width), h = max(0, height)
            let (count, overflow) = w.multipliedReportingOverflow(by: h)
            self.width = overflow ? 0 : w
            self.height = overflow ? 0 : h
            self.stride = self.width
            self.samples = [UInt16](repeating: value, count: overflow ? 0 : count)
        }

        /// Whether (`x`, `y`) is inside the plane.
        @inline(__always)
        func contains(x: Int, y: Int) -> Bool {
            x >= 0 && y >= 0 && x < width && y < height
        }

        /// Whether the rectangle of `width` × `height` samples at (`x`, `y`) is inside the plane.
        @inline(__always)
        func contains(x: Int, y: Int, width w: Int, height h: Int) -> Bool {
            x >= 0 && y >= 0 && w >= 0 && h >= 0 && x <= width &- w && y <= height &- h
        }

        /// `CurrFrame[ plane ][ y ][ x ]`: 0 outside the plane; writes outside it are dropped.
        @inline(__always)
        subscript(y y: Int, x x: Int) -> UInt16 {
            get { contains(x: x, y: y) ? samples[y &* stride &+ x] : 0 }
            set { if contains(x: x, y: y) { samples[y &* stride &+ x] = newValue } }
        }

        /// The sample at (`x`, `y`) as `Int`, for the arithmetic of the decoding processes.
        @inline(__always)
        func sample(_ x: Int, _ y: Int) -> Int {
            Int(self[y: y, x: x])
        }
    }
}
