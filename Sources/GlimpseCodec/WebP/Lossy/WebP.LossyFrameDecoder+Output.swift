/// Loop filtering of a finished macroblock row and conversion of the rows that
/// no later filtering can change into RGBA.
extension WebP.LossyFrameDecoder {
    /// Filters every macroblock of row `mbY` in the cache, left to right, each
    /// in libwebp's order: left edge, inner vertical edges, top edge, inner
    /// horizontal edges (RFC 6386 §15.1).
    func filterRow(_ mbY: Int) {
        typealias F = WebP.LossyLoopFilter
        let ys = lumaStride, cs = chromaStride
        for mbX in 0..<columns {
            let info = rowFilters[mbX]
            let limit = info.limit
            guard limit > 0 else { continue }
            let y = cacheY + (lumaMargin &* ys &+ mbX &* 16)
            if picture.filterType == 1 {
                if mbX > 0 { F.simpleEdge(y, step: 1, along: ys, limit: limit &+ 4) }
                if info.filtersInnerEdges {
                    for k in 1...3 { F.simpleEdge(y + 4 &* k, step: 1, along: ys, limit: limit) }
                }
                if mbY > 0 { F.simpleEdge(y, step: ys, along: 1, limit: limit &+ 4) }
                if info.filtersInnerEdges {
                    for k in 1...3 { F.simpleEdge(y + 4 &* k &* ys, step: ys, along: 1, limit: limit) }
                }
            } else {
                let u = cacheU + (chromaMargin &* cs &+ mbX &* 8)
                let v = cacheV + (chromaMargin &* cs &+ mbX &* 8)
                let interior = info.interiorLimit, hev = info.hevThreshold
                if mbX > 0 {
                    F.normalEdge(y, step: 1, along: ys, count: 16, limit: limit &+ 4, interior: interior,
                                 hevThreshold: hev, macroblockEdge: true)
                    for plane in [u, v] {
                        F.normalEdge(plane, step: 1, along: cs, count: 8, limit: limit &+ 4, interior: interior,
                                     hevThreshold: hev, macroblockEdge: true)
                    }
                }
                if info.filtersInnerEdges {
                    for k in 1...3 {
                        F.normalEdge(y + 4 &* k, step: 1, along: ys, count: 16, limit: limit, interior: interior,
                                     hevThreshold: hev, macroblockEdge: false)
                    }
                    for plane in [u, v] {
                        F.normalEdge(plane + 4, step: 1, along: cs, count: 8, limit: limit, interior: interior,
                                     hevThreshold: hev, macroblockEdge: false)
                    }
                }
                if mbY > 0 {
                    F.normalEdge(y, step: ys, along: 1, count: 16, limit: limit &+ 4, interior: interior,
                                 hevThreshold: hev, macroblockEdge: true)
                    for plane in [u, v] {
                        F.normalEdge(plane, step: cs, along: 1, count: 8, limit: limit &+ 4, interior: interior,
                                     hevThreshold: hev, macroblockEdge: true)
                    }
                }
                if info.filtersInnerEdges {
                    for k in 1...3 {
                        F.normalEdge(y + 4 &* k &* ys, step: ys, along: 1, count: 16, limit: limit,
                                     interior: interior, hevThreshold: hev, macroblockEdge: false)
                    }
                    for plane in [u, v] {
                        F.normalEdge(plane + 4 &* cs, step: cs, along: 1, count: 8, limit: limit,
                                     interior: interior, hevThreshold: hev, macroblockEdge: false)
                    }
                }
            }
        }
    }

    /// Converts the output rows that are final after macroblock row `mbY`:
    /// luma rows above the filter's reach into the next row, whose nearer and
    /// farther chroma rows are final too.
    mutating func emitRows(_ mbY: Int, output: WebP.LossyOutput) {
        let isLast = mbY == rows &- 1
        let chromaHeight = (height &+ 1) >> 1
        let lumaFinal = isLast ? height : Swift.min(height, 16 &* (mbY &+ 1) &- filterDelay)
        let chromaFinal = isLast ? chromaHeight : Swift.min(chromaHeight, 8 &* (mbY &+ 1) &- filterDelay / 2)
        // Image row of cache row 0.
        let lumaBase = 16 &* mbY &- lumaMargin
        let chromaBase = 8 &* mbY &- chromaMargin
        while nextOutputRow < lumaFinal {
            let row = nextOutputRow
            let near: Int, far: Int
            if row == 0 {
                near = 0; far = 0
            } else if row & 1 == 1 {
                near = (row &- 1) >> 1
                far = (row &+ 1) >> 1 < chromaHeight ? (row &+ 1) >> 1 : near
            } else {
                near = row >> 1; far = near &- 1
            }
            guard Swift.max(near, far) < chromaFinal else { break }
            let lumaRow = cacheY + (row &- lumaBase) &* lumaStride
            let nearOffset = (near &- chromaBase) &* chromaStride, farOffset = (far &- chromaBase) &* chromaStride
            WebP.LossyUpsampler.convertRow(y: lumaRow,
                                           nearU: cacheU + nearOffset, nearV: cacheV + nearOffset,
                                           farU: cacheU + farOffset, farV: cacheV + farOffset,
                                           dst: output.row(row), width: width)
            nextOutputRow &+= 1
        }
    }

    /// Moves the bottom rows of the cache to its top, where the next
    /// macroblock row's filtering and upsampling will look for them.
    func shiftCache() {
        (cacheY).update(from: cacheY + 16 &* lumaStride, count: lumaMargin &* lumaStride)
        (cacheU).update(from: cacheU + 8 &* chromaStride, count: chromaMargin &* chromaStride)
        (cacheV).update(from: cacheV + 8 &* chromaStride, count: chromaMargin &* chromaStride)
    }
}
