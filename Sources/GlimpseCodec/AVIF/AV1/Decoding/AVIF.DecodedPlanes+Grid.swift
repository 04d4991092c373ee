/// A grid's composition (ISO/IEC 23008-12 §6.6.2.3) on decoded planes: cells placed in raster order, cropped to the output.
extension AVIF.DecodedPlanes {
    /// Planes of `width` × `height` with `cell`'s format, every sample 0.
    init(width: Int, height: Int, like cell: AVIF.DecodedPlanes) {
        self.width = width
        self.height = height
        bitDepth = cell.bitDepth
        subsamplingX = cell.subsamplingX
        subsamplingY = cell.subsamplingY
        isFullRange = cell.isFullRange
        planes = []
        for plane in 0..<cell.planes.count {
            planes.append([UInt16](repeating: 0, count: planeWidth(plane) * planeHeight(plane)))
        }
    }

    /// Copies `cell` with its top-left luma sample at (`x`, `y`), cropped to these planes.
    mutating func place(_ cell: AVIF.DecodedPlanes, x: Int, y: Int) {
        for plane in 0..<min(planes.count, cell.planes.count) {
            let sx = plane == 0 ? 0 : subsamplingX, sy = plane == 0 ? 0 : subsamplingY
            let x0 = x >> sx, y0 = y >> sy
            let w = min(cell.planeWidth(plane), planeWidth(plane) - x0)
            let h = min(cell.planeHeight(plane), planeHeight(plane) - y0)
            guard w > 0, h > 0 else { continue }
            let stride = planeWidth(plane), cellStride = cell.planeWidth(plane)
            for row in 0..<h {
                let to = (y0 + row) * stride + x0, from = row * cellStride
                planes[plane].replaceSubrange(to..<(to + w), with: cell.planes[plane][from..<(from + w)])
            }
        }
    }
}
