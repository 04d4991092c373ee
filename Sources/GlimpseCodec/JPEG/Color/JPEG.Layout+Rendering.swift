extension JPEG.Layout {
    /// Upsamples and colour-converts output rows `rows` from the component
    /// planes into the RGBA8 `output` (tightly packed, `outputWidth` wide).
    func render(rows: Range<Int>, planes: UnsafePointer<UInt8>, transform: JPEG.ColorTransform,
                output: UnsafeMutablePointer<UInt8>) {
        guard !rows.isEmpty, outputWidth > 0 else { return }
        let count = min(components.count, 4)
        let scratchStride = outputWidth + 32
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchStride * 4)
        defer { scratch.deallocate() }
        let rowPointers = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: 4)
        defer { rowPointers.deallocate() }
        for y in rows {
            for c in 0..<count {
                let component = components[c]
                rowPointers[c] = JPEG.Upsampler.row(y, component: component, plane: planes + component.planeOffset,
                                                    scratch: scratch + c * scratchStride)
            }
            transform.convert(rowPointers, width: outputWidth, into: output + y * outputWidth * 4)
        }
    }

    /// Transforms every block of a progressive frame's coefficients into the planes.
    func transformAll(coefficients: UnsafePointer<Int16>, quantTables: UnsafePointer<Int32>,
                      planes: UnsafeMutablePointer<UInt8>) {
        let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 128)
        defer { workspace.deallocate() }
        for (c, component) in components.enumerated() {
            let quant = quantTables + c * 64
            let size = component.blockSize
            for by in 0..<component.blocksPerColumn {
                for bx in 0..<component.blocksPerLine {
                    let block = coefficients + component.coefficientOffset + (by * component.blocksPerLine + bx) * 64
                    let out = planes + component.planeOffset + by * size * component.planeStride + bx * size
                    JPEG.IDCT.transformBlock(block, quant: quant, size: size, out: out,
                                                stride: component.planeStride, workspace: workspace, scratch: workspace + 64)
                }
            }
        }
    }
}
