/// The edges of one macroblock, one function per kind of edge as libwebp's
/// `VFilter16`, `HFilter16i`, `VFilter8`… (`dsp/dec_sse2.c`): the filter is
/// inlined into each with its 6-tap or 4-tap choice fixed. Each function is
/// kept small on purpose: past its block budget the Swift optimiser inlines
/// nothing more into a function (see ``WebP/LossyEdgeFilter``), and every vector
/// shift of the filter counts as a loop until LLVM vectorises it; one function
/// for every edge left the loads and stores as calls.
extension WebP.LossyEdgeFilter {
    /// Every edge of one macroblock under the normal filter, in libwebp's order: left
    /// edge, inner vertical edges, top edge, inner horizontal edges (RFC 6386 §15.1),
    /// luma and chroma together. The decoder's rows and the encoder's reconstruction
    /// both filter through it, so the two cannot drift apart. `limit` is the inner
    /// edges' limit; the macroblock edges use `limit + 4`.
    static func normalMacroblock(y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>,
                                 v: UnsafeMutablePointer<UInt8>, lumaStride ys: Int, chromaStride cs: Int,
                                 limit: Int32, interior: Int32, hevThreshold hev: Int32,
                                 hasLeft: Bool, hasTop: Bool, filtersInnerEdges inner: Bool) {
        if hasLeft {
            lumaLeftEdge(y, stride: ys, limit: limit &+ 4, interior: interior, hevThreshold: hev)
            chromaLeftEdge(u, v, stride: cs, limit: limit &+ 4, interior: interior, hevThreshold: hev)
        }
        if inner {
            lumaInnerVerticalEdges(y, stride: ys, limit: limit, interior: interior, hevThreshold: hev)
            chromaInnerVerticalEdge(u, v, stride: cs, limit: limit, interior: interior, hevThreshold: hev)
        }
        if hasTop {
            lumaTopEdge(y, stride: ys, limit: limit &+ 4, interior: interior, hevThreshold: hev)
            chromaTopEdge(u, v, stride: cs, limit: limit &+ 4, interior: interior, hevThreshold: hev)
        }
        if inner {
            lumaInnerHorizontalEdges(y, stride: ys, limit: limit, interior: interior, hevThreshold: hev)
            chromaInnerHorizontalEdge(u, v, stride: cs, limit: limit, interior: interior, hevThreshold: hev)
        }
    }

    // MARK: Normal filter, luma (16 pixels along each edge)

    /// The macroblock edge above the row at `p` (RFC 6386 §15.3; libwebp's `VFilter16`).
    @inline(never)
    static func lumaTopEdge(_ p: UnsafeMutablePointer<UInt8>, stride s: Int,
                            limit: Int32, interior: Int32, hevThreshold: Int32) {
        normalHorizontal(p, s, limit, interior, hevThreshold, macroblockEdge: true)
    }

    /// The three inner edges above rows 4, 8 and 12 of the macroblock at `p` (`VFilter16i`).
    @inline(never)
    static func lumaInnerHorizontalEdges(_ p: UnsafeMutablePointer<UInt8>, stride s: Int,
                                         limit: Int32, interior: Int32, hevThreshold: Int32) {
        for k in 1...3 {
            normalHorizontal(p + 4 &* k &* s, s, limit, interior, hevThreshold, macroblockEdge: false)
        }
    }

    /// The macroblock edge left of the column at `p` (`HFilter16`).
    @inline(never)
    static func lumaLeftEdge(_ p: UnsafeMutablePointer<UInt8>, stride s: Int,
                             limit: Int32, interior: Int32, hevThreshold: Int32) {
        normalVertical(p, p + 8 &* s, s, limit, interior, hevThreshold, macroblockEdge: true)
    }

    /// The three inner edges left of columns 4, 8 and 12 of the macroblock at `p` (`HFilter16i`).
    @inline(never)
    static func lumaInnerVerticalEdges(_ p: UnsafeMutablePointer<UInt8>, stride s: Int,
                                       limit: Int32, interior: Int32, hevThreshold: Int32) {
        for k in 1...3 {
            normalVertical(p + 4 &* k, p + (8 &* s &+ 4 &* k), s, limit, interior, hevThreshold, macroblockEdge: false)
        }
    }

    // MARK: Normal filter, chroma (8 pixels of U and 8 of V together)

    /// The macroblock edges above the rows at `u` and `v` (`VFilter8`).
    @inline(never)
    static func chromaTopEdge(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int,
                              limit: Int32, interior: Int32, hevThreshold: Int32) {
        normalHorizontal(u, v, s, limit, interior, hevThreshold, macroblockEdge: true)
    }

    /// The inner edges above row 4 of the chroma blocks at `u` and `v` (`VFilter8i`).
    @inline(never)
    static func chromaInnerHorizontalEdge(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int,
                                          limit: Int32, interior: Int32, hevThreshold: Int32) {
        normalHorizontal(u + 4 &* s, v + 4 &* s, s, limit, interior, hevThreshold, macroblockEdge: false)
    }

    /// The macroblock edges left of the columns at `u` and `v` (`HFilter8`).
    @inline(never)
    static func chromaLeftEdge(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int,
                               limit: Int32, interior: Int32, hevThreshold: Int32) {
        normalVertical(u, v, s, limit, interior, hevThreshold, macroblockEdge: true)
    }

    /// The inner edges left of column 4 of the chroma blocks at `u` and `v` (`HFilter8i`).
    @inline(never)
    static func chromaInnerVerticalEdge(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride s: Int,
                                        limit: Int32, interior: Int32, hevThreshold: Int32) {
        normalVertical(u + 4, v + 4, s, limit, interior, hevThreshold, macroblockEdge: false)
    }

    // MARK: Simple filter (luma only, RFC 6386 §15.2)

    /// The macroblock edge above the row at `p` (`SimpleVFilter16`).
    @inline(never)
    static func simpleTopEdge(_ p: UnsafeMutablePointer<UInt8>, stride s: Int, limit: Int32) {
        simpleHorizontal(p, s, limit)
    }

    /// The inner edges above rows 4, 8 and 12 (`SimpleVFilter16i`).
    @inline(never)
    static func simpleInnerHorizontalEdges(_ p: UnsafeMutablePointer<UInt8>, stride s: Int, limit: Int32) {
        for k in 1...3 { simpleHorizontal(p + 4 &* k &* s, s, limit) }
    }

    /// The macroblock edge left of the column at `p` (`SimpleHFilter16`).
    @inline(never)
    static func simpleLeftEdge(_ p: UnsafeMutablePointer<UInt8>, stride s: Int, limit: Int32) {
        simpleVertical(p, p + 8 &* s, s, limit)
    }

    /// The inner edges left of columns 4, 8 and 12 (`SimpleHFilter16i`).
    @inline(never)
    static func simpleInnerVerticalEdges(_ p: UnsafeMutablePointer<UInt8>, stride s: Int, limit: Int32) {
        for k in 1...3 { simpleVertical(p + 4 &* k, p + (8 &* s &+ 4 &* k), s, limit) }
    }

    // MARK: One edge: load, filter, store

    @_transparent
    private static func normalHorizontal(_ p: UnsafeMutablePointer<UInt8>, _ s: Int, _ limit: Int32, _ interior: Int32,
                                         _ hevThreshold: Int32, macroblockEdge: Bool) {
        var e = loadHorizontal(p, stride: s, wide: true)
        normal(&e, limit: limit, interior: interior, hevThreshold: hevThreshold, macroblockEdge: macroblockEdge)
        storeHorizontal(e, p, stride: s, wide: true)
    }

    @_transparent
    private static func normalHorizontal(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, _ s: Int,
                                         _ limit: Int32, _ interior: Int32, _ hevThreshold: Int32, macroblockEdge: Bool) {
        var e = loadHorizontal(u, v, stride: s)
        normal(&e, limit: limit, interior: interior, hevThreshold: hevThreshold, macroblockEdge: macroblockEdge)
        storeHorizontal(e, u, v, stride: s)
    }

    @_transparent
    private static func normalVertical(_ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>, _ s: Int,
                                       _ limit: Int32, _ interior: Int32, _ hevThreshold: Int32, macroblockEdge: Bool) {
        var e = loadVertical(upper, lower, stride: s)
        normal(&e, limit: limit, interior: interior, hevThreshold: hevThreshold, macroblockEdge: macroblockEdge)
        storeVertical(e, upper, lower, stride: s)
    }

    @_transparent
    private static func simpleHorizontal(_ p: UnsafeMutablePointer<UInt8>, _ s: Int, _ limit: Int32) {
        var e = loadHorizontal(p, stride: s, wide: false)
        simple(&e, limit: limit)
        storeHorizontal(e, p, stride: s, wide: false)
    }

    @_transparent
    private static func simpleVertical(_ upper: UnsafeMutablePointer<UInt8>, _ lower: UnsafeMutablePointer<UInt8>, _ s: Int,
                                       _ limit: Int32) {
        var e = loadVertical(upper, lower, stride: s)
        simple(&e, limit: limit)
        storeVertical(e, upper, lower, stride: s)
    }
}
