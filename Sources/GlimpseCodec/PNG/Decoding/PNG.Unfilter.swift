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
                          count: Int, bpp: Int) throws(DecodingError) {
            switch filter {
            case 0: return
            case 1: sub(row, count, bpp)
            case 2: up(row, prior, count)
            case 3: average(row, prior, count, bpp)
            case 4:
                switch bpp {
                case 3: paeth3(row, prior, count)
                case 4: paeth4(row, prior, count)
                default: paeth(row, prior, count, bpp)
                }
            default: throw .malformed("filter type \(filter)")
            }
        }

        @inline(__always)
        static func sub(_ row: UnsafeMutablePointer<UInt8>, _ count: Int, _ bpp: Int) {
            if bpp == 4 {
                var left = SIMD4<UInt8>(repeating: 0)
                var i = 0
                let raw = UnsafeMutableRawPointer(row)
                while i &+ 4 <= count {
                    left &+= raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
                    raw.storeBytes(of: left, toByteOffset: i, as: SIMD4<UInt8>.self)
                    i &+= 4
                }
                return
            }
            var i = bpp
            while i < count {
                row[i] &+= row[i &- bpp]
                i &+= 1
            }
        }

        @inline(__always)
        static func up(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int) {
            for i in 0..<count { row[i] &+= prior[i] }
        }

        @inline(__always)
        static func average(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) {
            let head = min(bpp, count)
            for i in 0..<head { row[i] &+= prior[i] >> 1 }
            if bpp == 4 {
                let raw = UnsafeMutableRawPointer(row)
                let up = UnsafeRawPointer(prior)
                var left = SIMD4<UInt16>(truncatingIfNeeded: raw.loadUnaligned(as: SIMD4<UInt8>.self))
                var i = 4
                while i &+ 4 <= count {
                    let b = SIMD4<UInt16>(truncatingIfNeeded: up.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                    let x = SIMD4<UInt16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                    left = (x &+ ((left &+ b) &>> 1)) & 0xFF
                    raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: left), toByteOffset: i, as: SIMD4<UInt8>.self)
                    i &+= 4
                }
                return
            }
            var i = bpp
            while i < count {
                row[i] &+= UInt8(truncatingIfNeeded: (UInt16(row[i &- bpp]) &+ UInt16(prior[i])) >> 1)
                i &+= 1
            }
        }

        /// The Paeth predictor of PNG §9.4, without branches.
        @inline(__always)
        static func predictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
            let ia = Int16(a), ib = Int16(b), ic = Int16(c)
            let pa = abs(ib &- ic)
            let pb = abs(ia &- ic)
            let pc = abs(ia &+ ib &- ic &- ic)
            let bOrC = pb <= pc ? b : c
            return (pa <= pb && pa <= pc) ? a : bOrC
        }

        static func paeth(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int, _ bpp: Int) {
            let head = min(bpp, count)
            for i in 0..<head { row[i] &+= prior[i] }
            var i = bpp
            while i < count {
                row[i] &+= predictor(row[i &- bpp], prior[i], prior[i &- bpp])
                i &+= 1
            }
        }

        /// Paeth on whole pixels of four bytes, four lanes at a time.
        static func paeth4(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int) {
            let raw = UnsafeMutableRawPointer(row)
            let up = UnsafeRawPointer(prior)
            var a = SIMD4<Int16>(repeating: 0)
            var c = SIMD4<Int16>(repeating: 0)
            var i = 0
            while i &+ 4 <= count {
                let b = SIMD4<Int16>(truncatingIfNeeded: up.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                let x = SIMD4<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                let p = simdPaeth(a, b, c)
                a = (x &+ p) & 0xFF
                c = b
                raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: a), toByteOffset: i, as: SIMD4<UInt8>.self)
                i &+= 4
            }
        }

        /// Paeth on whole pixels of three bytes (RGB8), using four-lane vectors.
        static func paeth3(_ row: UnsafeMutablePointer<UInt8>, _ prior: UnsafePointer<UInt8>, _ count: Int) {
            var a = SIMD4<Int16>(repeating: 0)
            var c = SIMD4<Int16>(repeating: 0)
            var i = 0
            while i &+ 3 <= count {
                let b = SIMD4<Int16>(Int16(prior[i]), Int16(prior[i &+ 1]), Int16(prior[i &+ 2]), 0)
                let x = SIMD4<Int16>(Int16(row[i]), Int16(row[i &+ 1]), Int16(row[i &+ 2]), 0)
                let p = simdPaeth(a, b, c)
                a = (x &+ p) & 0xFF
                c = b
                row[i] = UInt8(truncatingIfNeeded: a[0])
                row[i &+ 1] = UInt8(truncatingIfNeeded: a[1])
                row[i &+ 2] = UInt8(truncatingIfNeeded: a[2])
                i &+= 3
            }
        }

        @inline(__always)
        static func simdPaeth(_ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>) -> SIMD4<Int16> {
            let pa = absolute(b &- c)
            let pb = absolute(a &- c)
            let pc = absolute(a &+ b &- c &- c)
            let bOrC = c.replacing(with: b, where: pb .<= pc)
            return bOrC.replacing(with: a, where: (pa .<= pb) .& (pa .<= pc))
        }

        @inline(__always)
        static func absolute(_ v: SIMD4<Int16>) -> SIMD4<Int16> {
            pointwiseMax(v, 0 &- v)
        }
    }
}
