/// Loop filtering of a finished macroblock row and conversion of the rows that
/// no later filtering can change into RGBA.
extension WebP.LossyFrameDecoder {
    /// Filters every macroblock of row `mbY` in the cache, left to right, each
    /// in libwebp's order: left edge, inner vertical edges, top edge, inner
    /// horizontal edges (RFC 6386 §15.1). Each edge is filtered 16 positions
    /// at a time (``WebP/LossyEdgeFilter``); chroma U and V edges together.
    func filterRow(_ mbY: Int) {
        typealias F = WebP.LossyEdgeFilter
        let ys = lumaStride, cs = chromaStride
        let simple = picture.filterType == 1
        for mbX in 0..<columns {
            let info = rowFilters[mbX]
            let limit = info.limit
            guard limit > 0 else { continue }
            let y = cacheY + (lumaMargin &* ys &+ mbX &* 16)
            let inner = info.filtersInnerEdges
            if simple {
                if mbX > 0 { F.simpleLeftEdge(y, stride: ys, limit: limit &+ 4) }
                if inner { F.simpleInnerVerticalEdges(y, stride: ys, limit: limit) }
                if mbY > 0 { F.simpleTopEdge(y, stride: ys, limit: limit &+ 4) }
                if inner { F.simpleInnerHorizontalEdges(y, stride: ys, limit: limit) }
                continue
            }
            let u = cacheU + (chromaMargin &* cs &+ mbX &* 8)
            let v = cacheV + (chromaMargin &* cs &+ mbX &* 8)
            F.normalMacroblock(y: y, u: u, v: v, lumaStride: ys, chromaStride: cs, limit: limit,
                               interior: info.interiorLimit, hevThreshold: info.hevThreshold,
                               hasLeft: mbX > 0, hasTop: mbY > 0, filtersInnerEdges: inner)
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
            let (near, far) = WebP.LossyUpsampler.chromaRows(forLumaRow: row, chromaHeight: chromaHeight)
            guard Swift.max(near, far) < chromaFinal else { break }
            let lumaRow = cacheY + (row &- lumaBase) &* lumaStride
            let nearOffset = (near &- chromaBase) &* chromaStride, farOffset = (far &- chromaBase) &* chromaStride
            WebP.LossyUpsampler.convertRow(y: lumaRow,
                                           nearU: cacheU + nearOffset, nearV: cacheV + nearOffset,
                                           farU: cacheU + farOffset, farV: cacheV + farOffset,
                                           dst: output.row(row), width: width,
                                           scratchU: UnsafeMutableRawPointer(chromaRow),
                                           scratchV: UnsafeMutableRawPointer(chromaRow + WebP.LossyUpsampler.scratchBytes(width: width)))
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
