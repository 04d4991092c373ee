extension PNG.Unfilter {
    /// Paeth (PNG §9.4) on two consecutive 1-byte-per-pixel rows at once.
    ///
    /// A single Paeth row of grey bytes is one dependency chain through every
    /// byte (each byte's predictor needs the byte just decoded), so the CPU
    /// waits on latency. The second row only needs the first row's bytes up to
    /// its own column, so it runs one byte behind the first: the two chains are
    /// independent within an iteration and execute side by side.
    ///
    /// The caller guarantees `first`, `second` and `prior` hold `count` bytes
    /// each, `second` being the row directly below `first` with filter type 4.
    @inline(never)
    static func paethPair1(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                           _ prior: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        // Byte 0 has no left neighbour: the predictor is the byte above.
        first[0] &+= prior[0]
        second[0] &+= first[0]
        guard count > 1 else { return }
        var a0 = Int32(first[0]), c0 = Int32(prior[0])
        let b = Int32(prior[1])
        a0 = (Int32(first[1]) &+ predictor(a0, b, c0)) & 0xFF
        first[1] = UInt8(truncatingIfNeeded: a0)
        c0 = b
        // Row 1 at byte j = i − 1: a1 = second[j − 1], b1 = first[j] (= a0), c1 = first[j − 1].
        var a1 = Int32(second[0]), c1 = Int32(first[0])
        var i = 2
        while i < count {
            let b0 = Int32(prior[i])
            let b1 = a0
            let n0 = (Int32(first[i]) &+ predictor(a0, b0, c0)) & 0xFF
            let n1 = (Int32(second[i &- 1]) &+ predictor(a1, b1, c1)) & 0xFF
            first[i] = UInt8(truncatingIfNeeded: n0)
            second[i &- 1] = UInt8(truncatingIfNeeded: n1)
            a0 = n0
            c0 = b0
            a1 = n1
            c1 = b1
            i &+= 1
        }
        let last = count &- 1
        second[last] = UInt8(truncatingIfNeeded: (Int32(second[last]) &+ predictor(a1, a0, c1)) & 0xFF)
    }

    /// ``paethPair1(_:_:_:count:)`` for 2-byte pixels (and any `bpp`): the
    /// second row runs one pixel behind the first, byte by byte.
    @inline(never)
    static func paethPair(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                          _ prior: UnsafePointer<UInt8>, count: Int, bpp: Int) {
        @inline(__always) func paeth(_ x: UInt8, _ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
            UInt8(truncatingIfNeeded: Int32(x) &+ predictor(Int32(a), Int32(b), Int32(c)))
        }
        let head = min(bpp, count)
        var i = 0
        while i < head {
            first[i] &+= prior[i]
            second[i] &+= first[i]
            i &+= 1
        }
        let lead = min(bpp &* 2, count)
        while i < lead {
            first[i] = paeth(first[i], first[i &- bpp], prior[i], prior[i &- bpp])
            i &+= 1
        }
        // Every index stays in 0..<count: i < count and j = i − bpp ≥ bpp.
        while i < count {
            let j = i &- bpp
            first[i] = paeth(first[i], first[j], prior[i], prior[j])
            second[j] = paeth(second[j], second[j &- bpp], first[j], first[j &- bpp])
            i &+= 1
        }
        var j = max(bpp, count &- bpp)
        while j < count {
            second[j] = paeth(second[j], second[j &- bpp], first[j], first[j &- bpp])
            j &+= 1
        }
    }

    /// ``paethPair1(_:_:_:count:)`` for 4-byte pixels: one vector per pixel and
    /// row, the second row one pixel behind the first. `count` is a multiple of 4.
    @inline(never)
    static func paethPair4(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                           _ prior: UnsafePointer<UInt8>, count: Int) {
        let pixels = count >> 2
        guard pixels > 0 else { return }
        let row0 = UnsafeMutableRawPointer(first), row1 = UnsafeMutableRawPointer(second)
        let up = UnsafeRawPointer(prior)
        @inline(__always) func load(_ raw: UnsafeRawPointer, _ pixel: Int) -> SIMD4<Int16> {
            SIMD4<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: pixel &<< 2, as: SIMD4<UInt8>.self))
        }
        @inline(__always) func store(_ value: SIMD4<Int16>, _ raw: UnsafeMutableRawPointer, _ pixel: Int) {
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: value), toByteOffset: pixel &<< 2, as: SIMD4<UInt8>.self)
        }
        let zero = SIMD4<Int16>(repeating: 0)
        // Pixel 0 has no left neighbour: a = c = 0 makes the predictor b.
        var c0 = load(up, 0)
        var a0 = (load(row0, 0) &+ simdPaeth(zero, c0, zero)) & 0xFF
        store(a0, row0, 0)
        // Row 1 at pixel j = k − 1: a1 = second[j − 1], b1 = first[j] (= a0), c1 = first[j − 1].
        var a1 = zero, c1 = zero
        var k = 1
        // Pixels k and k − 1 lie inside both rows: 1 ≤ k < pixels = count / 4.
        while k < pixels {
            let b0 = load(up, k)
            let b1 = a0
            let n0 = (load(row0, k) &+ simdPaeth(a0, b0, c0)) & 0xFF
            let n1 = (load(row1, k &- 1) &+ simdPaeth(a1, b1, c1)) & 0xFF
            store(n0, row0, k)
            store(n1, row1, k &- 1)
            a0 = n0
            c0 = b0
            a1 = n1
            c1 = b1
            k &+= 1
        }
        store((load(row1, pixels &- 1) &+ simdPaeth(a1, a0, c1)) & 0xFF, row1, pixels &- 1)
    }

    /// ``paethPair4(_:_:_:count:)`` for 6- and 8-byte pixels (RGB16, RGBA16).
    /// The loop repeats paethPair4's on purpose: one generic over the vector type (with a
    /// generic `simdPaeth`) gave identical output but measured 2.8× slower on rgb16-1920x1200
    /// (59 → 169 ms) and 4–7 % slower on RGBA8, as the SIMD generics were not fully specialised.
    /// `count` is a multiple of `bpp`; 6-byte pixels are read and written as
    /// 4 + 2 bytes so that nothing past the row is touched.
    @inline(never)
    static func paethPair8(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                           _ prior: UnsafePointer<UInt8>, count: Int, bpp: Int) {
        let pixels = count / bpp
        guard pixels > 0 else { return }
        let row0 = UnsafeMutableRawPointer(first), row1 = UnsafeMutableRawPointer(second)
        let up = UnsafeRawPointer(prior)
        // Every access covers bytes pixel·bpp ..< (pixel + 1)·bpp ≤ count.
        @inline(__always) func load(_ raw: UnsafeRawPointer, _ pixel: Int) -> SIMD8<Int16> {
            let offset = pixel &* bpp
            let bytes: UInt64
            if bpp == 8 {
                bytes = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            } else {
                bytes = UInt64(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    | UInt64(raw.loadUnaligned(fromByteOffset: offset &+ 4, as: UInt16.self)) << 32
            }
            return SIMD8<Int16>(truncatingIfNeeded: unsafeBitCast(bytes, to: SIMD8<UInt8>.self))
        }
        @inline(__always) func store(_ value: SIMD8<Int16>, _ raw: UnsafeMutableRawPointer, _ pixel: Int) {
            let offset = pixel &* bpp
            let bytes = unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: value), to: UInt64.self)
            if bpp == 8 {
                raw.storeBytes(of: bytes, toByteOffset: offset, as: UInt64.self)
            } else {
                raw.storeBytes(of: UInt32(truncatingIfNeeded: bytes), toByteOffset: offset, as: UInt32.self)
                raw.storeBytes(of: UInt16(truncatingIfNeeded: bytes >> 32), toByteOffset: offset &+ 4, as: UInt16.self)
            }
        }
        let zero = SIMD8<Int16>(repeating: 0)
        // Lanes past `bpp` are loaded as 0 and stay 0 through the arithmetic.
        var c0 = load(up, 0)
        var a0 = (load(row0, 0) &+ simdPaeth(zero, c0, zero)) & 0xFF
        store(a0, row0, 0)
        var a1 = zero, c1 = zero
        var k = 1
        while k < pixels {
            let b0 = load(up, k)
            let b1 = a0
            let n0 = (load(row0, k) &+ simdPaeth(a0, b0, c0)) & 0xFF
            let n1 = (load(row1, k &- 1) &+ simdPaeth(a1, b1, c1)) & 0xFF
            store(n0, row0, k)
            store(n1, row1, k &- 1)
            a0 = n0
            c0 = b0
            a1 = n1
            c1 = b1
            k &+= 1
        }
        store((load(row1, pixels &- 1) &+ simdPaeth(a1, a0, c1)) & 0xFF, row1, pixels &- 1)
    }

    /// Average (PNG §9.3) on two consecutive RGB8 rows, the second one pixel
    /// behind the first: six byte chains side by side instead of three.
    /// `count` is a multiple of 3.
    @inline(never)
    static func averagePair3(_ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                             _ prior: UnsafePointer<UInt8>, count: Int) {
        @inline(__always) func average(_ x: UInt8, _ a: UInt16, _ b: UInt16) -> UInt16 {
            (UInt16(x) &+ ((a &+ b) >> 1)) & 0xFF
        }
        let pixels = count / 3
        guard pixels > 0 else { return }
        // First row, pixel 0: no left neighbour.
        var p0 = average(first[0], 0, UInt16(prior[0]))
        var p1 = average(first[1], 0, UInt16(prior[1]))
        var p2 = average(first[2], 0, UInt16(prior[2]))
        first[0] = UInt8(truncatingIfNeeded: p0)
        first[1] = UInt8(truncatingIfNeeded: p1)
        first[2] = UInt8(truncatingIfNeeded: p2)
        // p: first row at pixel k − 1; q: second row at pixel k − 2 (0 before pixel 0).
        var q0: UInt16 = 0, q1: UInt16 = 0, q2: UInt16 = 0
        var k = 1
        // i = 3k and j = i − 3 address whole pixels inside both rows: k < pixels = count / 3.
        while k < pixels {
            let i = k &* 3, j = i &- 3
            let n0 = average(first[i], p0, UInt16(prior[i]))
            let n1 = average(first[i &+ 1], p1, UInt16(prior[i &+ 1]))
            let n2 = average(first[i &+ 2], p2, UInt16(prior[i &+ 2]))
            let m0 = average(second[j], q0, p0)
            let m1 = average(second[j &+ 1], q1, p1)
            let m2 = average(second[j &+ 2], q2, p2)
            first[i] = UInt8(truncatingIfNeeded: n0)
            first[i &+ 1] = UInt8(truncatingIfNeeded: n1)
            first[i &+ 2] = UInt8(truncatingIfNeeded: n2)
            second[j] = UInt8(truncatingIfNeeded: m0)
            second[j &+ 1] = UInt8(truncatingIfNeeded: m1)
            second[j &+ 2] = UInt8(truncatingIfNeeded: m2)
            p0 = n0
            p1 = n1
            p2 = n2
            q0 = m0
            q1 = m1
            q2 = m2
            k &+= 1
        }
        let j = (pixels &- 1) &* 3
        second[j] = UInt8(truncatingIfNeeded: average(second[j], q0, p0))
        second[j &+ 1] = UInt8(truncatingIfNeeded: average(second[j &+ 1], q1, p1))
        second[j &+ 2] = UInt8(truncatingIfNeeded: average(second[j &+ 2], q2, p2))
    }

    /// Whether two consecutive rows with the same `filter` can go through
    /// ``pair(_:_:_:_:count:bpp:)``.
    static func canPair(_ filter: UInt8, count: Int, bpp: Int) -> Bool {
        guard bpp > 0, count % bpp == 0 else { return false }
        switch filter {
        case 3: return bpp == 3
        case 4: return bpp != 3 && bpp <= 8
        default: return false
        }
    }

    /// Unfilters two consecutive rows that both use `filter`, where
    /// ``canPair(_:count:bpp:)`` allowed it.
    static func pair(_ filter: UInt8, _ first: UnsafeMutablePointer<UInt8>, _ second: UnsafeMutablePointer<UInt8>,
                     _ prior: UnsafePointer<UInt8>, count: Int, bpp: Int) {
        switch (filter, bpp) {
        case (3, _): averagePair3(first, second, prior, count: count)
        case (_, 1): paethPair1(first, second, prior, count: count)
        case (_, 4): paethPair4(first, second, prior, count: count)
        case (_, 6), (_, 8): paethPair8(first, second, prior, count: count, bpp: bpp)
        default: paethPair(first, second, prior, count: count, bpp: bpp)
        }
    }
}
