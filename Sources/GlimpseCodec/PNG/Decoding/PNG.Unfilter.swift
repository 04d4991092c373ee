extension PNG {
    /// Reverses the five scanline filters of PNG §7.3 / §9.
    ///
    /// Rows are unfiltered in place; `prior` is the previous unfiltered row of the
    /// same pass (all zero for the first row). The byte distance `bpp` is the
    /// filter stride of PNG §9.2 (bytes per complete pixel, at least 1).
    enum Unfilter {
        /// Unfilters `count` bytes at `row` with filter type `filter`.
        ///
        /// The caller guarantees `row` and `prior` hold `count` bytes each.
        static func apply(_ filter: UInt8, row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>,
                          count: Int, bpp: Int) throws(ImageDecodingError) {
            switch filter {
            case 0: return
            case 2: up(row, prior, count)
            case 1, 3, 4:
                // Whole pixels in vectors first, then bytes from where they stopped.
                let start = pixels(filter, row, prior, count, bpp)
                switch filter {
                case 1: sub(row, count, bpp, from: start)
                case 3: average(row, prior, count, bpp, from: start)
                default: paeth(row, prior, count, bpp, from: start)
                }
            default: throw .malformed(.png(.filterType(filter)))
            }
        }

        /// Bytes from `start` on (earlier bytes are final); the first `bpp` bytes
        /// have no left neighbour. The left bytes of 1-, 2- and 3-byte pixels are
        /// carried in registers: reloading a byte just stored would put the
        /// store-to-load forwarding delay on the dependency chain.
        @inline(never)
        static func sub(_ row: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int, from start: Int) {
            var i = max(start, bpp)
            if bpp <= 3 && i == bpp && count >= bpp {
                var a0 = row[0], a1 = bpp > 1 ? row[1] : 0, a2 = bpp > 2 ? row[2] : 0
                while i &+ bpp <= count {
                    a0 &+= row[i]
                    row[i] = a0
                    if bpp > 1 { a1 &+= row[i &+ 1]; row[i &+ 1] = a1 }
                    if bpp > 2 { a2 &+= row[i &+ 2]; row[i &+ 2] = a2 }
                    i &+= bpp
                }
            }
            while i < count {
                row[i] &+= row[i &- bpp]
                i &+= 1
            }
        }

        @inline(__always)
        static func up(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int) {
            for i in 0..<count { row[i] &+= prior[i] }
        }

        @inline(never)
        static func average(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int,
                            from start: Int) {
            var i = start
            while i < min(bpp, count) {
                row[i] &+= prior[i] >> 1
                i &+= 1
            }
            if bpp <= 3 && i == bpp {
                // Left bytes in registers (see `sub`).
                var a0 = UInt16(row[0]), a1 = bpp > 1 ? UInt16(row[1]) : 0, a2 = bpp > 2 ? UInt16(row[2]) : 0
                while i &+ bpp <= count {
                    a0 = (UInt16(row[i]) &+ ((a0 &+ UInt16(prior[i])) >> 1)) & 0xFF
                    row[i] = UInt8(truncatingIfNeeded: a0)
                    if bpp > 1 {
                        a1 = (UInt16(row[i &+ 1]) &+ ((a1 &+ UInt16(prior[i &+ 1])) >> 1)) & 0xFF
                        row[i &+ 1] = UInt8(truncatingIfNeeded: a1)
                    }
                    if bpp > 2 {
                        a2 = (UInt16(row[i &+ 2]) &+ ((a2 &+ UInt16(prior[i &+ 2])) >> 1)) & 0xFF
                        row[i &+ 2] = UInt8(truncatingIfNeeded: a2)
                    }
                    i &+= bpp
                }
            }
            while i < count {
                row[i] &+= UInt8(truncatingIfNeeded: (UInt16(row[i &- bpp]) &+ UInt16(prior[i])) >> 1)
                i &+= 1
            }
        }

        /// The Paeth predictor of PNG §9.4, without branches.
        @inline(__always)
        static func predictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: predictor(Int32(a), Int32(b), Int32(c)))
        }

        /// Paeth on 32-bit values. Choosing the nearest of a, b, c to
        /// p = a + b − c (ties to a, then b) is the same as: with lo = min(a, b),
        /// hi = max(a, b) and t = 3c − (a + b), take lo when hi ≤ t, hi when
        /// t ≤ lo, c otherwise (p is nearer c than hi exactly when hi ≤ t, and so
        /// on). That form puts only three operations between a and the result.
        @inline(__always)
        static func predictor(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 {
            let threshold = c &* 3 &- (a &+ b)
            let lo = min(a, b)
            let hi = max(a, b)
            let loOrC = hi <= threshold ? lo : c
            return threshold <= lo ? hi : loOrC
        }

        @inline(never)
        static func paeth(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int,
                          from start: Int) {
            var i = start
            while i < min(bpp, count) {
                row[i] &+= prior[i]
                i &+= 1
            }
            if bpp == 1 && i < count {
                // One chain through every byte: keep a and c in registers.
                var a = Int32(row[i &- 1])
                var c = Int32(prior[i &- 1])
                while i < count {
                    let b = Int32(prior[i])
                    a = (Int32(row[i]) &+ predictor(a, b, c)) & 0xFF
                    row[i] = UInt8(truncatingIfNeeded: a)
                    c = b
                    i &+= 1
                }
                return
            }
            while i < count {
                let p = predictor(Int32(row[i &- bpp]), Int32(prior[i]), Int32(prior[i &- bpp]))
                row[i] = UInt8(truncatingIfNeeded: Int32(row[i]) &+ p)
                i &+= 1
            }
        }

        @inline(__always)
        static func simdPaeth(_ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>) -> SIMD4<Int16> {
            // The threshold form of `predictor(_:_:_:)`, lane by lane. Min and max come
            // from a compare and selects: the stdlib's generic pointwiseMin/Max were
            // sometimes emitted as out-of-line calls in these loops (measured: Adam7
            // RGBA8 32 -> 41 ms once another caller appeared), the comparison never.
            let threshold = c &* 3 &- (a &+ b)
            let aBelow = a .< b
            let lo = b.replacing(with: a, where: aBelow)
            let hi = a.replacing(with: b, where: aBelow)
            let loOrC = c.replacing(with: lo, where: hi .<= threshold)
            return loOrC.replacing(with: hi, where: threshold .<= lo)
        }

        @inline(__always)
        static func simdPaeth(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>, _ c: SIMD8<Int16>) -> SIMD8<Int16> {
            let threshold = c &* 3 &- (a &+ b)
            let aBelow = a .< b
            let lo = b.replacing(with: a, where: aBelow)
            let hi = a.replacing(with: b, where: aBelow)
            let loOrC = c.replacing(with: lo, where: hi .<= threshold)
            return loOrC.replacing(with: hi, where: threshold .<= lo)
        }
    }
}
