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

    /// Transforms the blocks of MCU row `mcuRow` of a progressive frame's
    /// coefficients into the planes (ring planes when the layout has them).
    func transform(mcuRow: Int, coefficients: UnsafePointer<Int16>, quantTables: UnsafePointer<Int32>,
                   quantTables16: UnsafePointer<Int16>,
                   planes: UnsafeMutablePointer<UInt8>, workspace: UnsafeMutablePointer<Int32>) {
        for (c, component) in components.enumerated() {
            let quant = quantTables + c * 64, quant16 = quantTables16 + c * 64
            let size = component.blockSize
            let stride = component.coefficientStride
            for by in (mcuRow * component.v)..<((mcuRow + 1) * component.v) {
                var y = by * size
                if component.ringRows > 0 { y %= component.ringRows }
                let row = coefficients + component.coefficientOffset + by * component.blocksPerLine * stride
                let out = planes + component.planeOffset + y * component.planeStride
                if stride == 1 {
                    // DC-only store: its AC scans were skipped, so every block is DC-only, which
                    // `transformBlock` sends to `dcOnlyValue` too.
                    for bx in 0..<component.blocksPerLine { out[bx] = JPEG.IDCT.dcOnlyValue(Int32(row[bx]), quant[0], size: 1) }
                    continue
                }
                for bx in 0..<component.blocksPerLine {
                    JPEG.IDCT.transformBlock(row + bx * 64, quant: quant, quant16: quant16, size: size, out: out + bx * size,
                                             stride: component.planeStride, workspace: workspace, scratch: workspace + 64)
                }
            }
        }
    }
}
