/// Rotation by an angle that is not a multiple of 90°: inverse mapping with
/// bilinear interpolation of premultiplied pixels on an enlarged canvas.
struct ArbitraryRotation {
    /// Clockwise, in degrees, in (0, 360).
    var degrees: Double
    var limits: DecodingLimits

    /// The canvas that holds the whole rotated `width` × `height` image (for
    /// multiples of 90° the exact swapped or unswapped size).
    func outputSize(width: Int, height: Int) throws(TransformError) -> (width: Int, height: Int) {
        let (cosine, sine) = sineAndCosine
        let w = Double(width), h = Double(height)
        // The rotated rectangle's bounding box; the epsilon keeps 1e-12 of
        // rounding noise from adding a whole column.
        let outW = (w * abs(cosine) + h * abs(sine) - 1e-9).rounded(.up)
        let outH = (w * abs(sine) + h * abs(cosine) - 1e-9).rounded(.up)
        guard outW <= Double(limits.maxWidth) else { throw .limitExceeded(.width) }
        guard outH <= Double(limits.maxHeight) else { throw .limitExceeded(.height) }
        return (max(1, Int(outW)), max(1, Int(outH)))
    }

    private var sineAndCosine: (cos: Double, sin: Double) {
        switch degrees {
        case 0: (1, 0)
        case 90: (0, 1)
        case 180: (-1, 0)
        case 270: (0, -1)
        default: (ScalarMath.cos(degrees * .pi / 180), ScalarMath.sin(degrees * .pi / 180))
        }
    }

    func rotate(_ source: PixelBuffer) throws(TransformError) -> PixelBuffer {
        let (cosine, sine) = sineAndCosine
        let w = Double(source.width), h = Double(source.height)
        let (outputWidth, outputHeight) = try outputSize(width: source.width, height: source.height)
        let outW = Double(outputWidth), outH = Double(outputHeight)
        try limits.checkTransformOutput(width: outputWidth, height: outputHeight, format: source.format,
                                        workingBytes: outputWidth * MemoryLayout<SIMD4<Float>>.stride)

        var output = PixelBuffer(width: outputWidth, height: outputHeight, format: source.format)
        var row = [SIMD4<Float>](repeating: SIMD4(), count: outputWidth)
        let format = source.format
        let sourceWidth = source.width, sourceHeight = source.height
        let bytesPerPixel = format.bytesPerPixel, sourceRowBytes = source.bytesPerRow
        let outputRowBytes = output.bytesPerRow
        let (cos, sin) = (Float(cosine), Float(sine))
        let halfOutW = Float(outW) / 2, halfOutH = Float(outH) / 2
        let halfW = Float(w) / 2, halfH = Float(h) / 2
        let table = SampleTables.toWorking(format: format, linear: false)
        let is8 = format == .rgba8
        let lastX = UInt(sourceWidth - 1), lastY = UInt(sourceHeight - 1)

        source.bytes.withUnsafeBytes { input in
            output.bytes.withUnsafeMutableBytes { out in
                row.withUnsafeMutableBufferPointer { row in
                    table.withUnsafeBufferPointer { table in
                        guard let input = input.baseAddress, let out = out.baseAddress,
                              let row = row.baseAddress, let table = table.baseAddress else { return }
                        // Reads happen only after the bounds test on (x0, y0) below.
                        @inline(__always) func sample(_ x: Int, _ y: Int) -> SIMD4<Float> {
                            guard x >= 0, y >= 0, x < sourceWidth, y < sourceHeight else { return SIMD4() }
                            let p = input + (y &* sourceRowBytes &+ x &* bytesPerPixel)
                            return format == .rgba8
                                ? WorkingPixels.pixel8(p.assumingMemoryBound(to: UInt8.self), table)
                                : WorkingPixels.pixel16(p, table)
                        }
                        for y in 0..<outputHeight {
                            let dy = Float(y) + 0.5 - halfOutH
                            for x in 0..<outputWidth {
                                let dx = Float(x) + 0.5 - halfOutW
                                // Inverse of a clockwise turn, in pixel-index coordinates.
                                let sx = dx * cos + dy * sin + halfW - 0.5
                                let sy = -dx * sin + dy * cos + halfH - 0.5
                                guard sx > -1, sy > -1, sx < Float(sourceWidth), sy < Float(sourceHeight) else {
                                    row[x] = SIMD4()
                                    continue
                                }
                                // sx, sy > −1 here, so truncating x + 1 floors x without a libm call.
                                let x0 = Int(sx + 1) &- 1, y0 = Int(sy + 1) &- 1
                                let tx = sx - Float(x0), ty = sy - Float(y0)
                                let p00, p10, p01, p11: SIMD4<Float>
                                if is8 && UInt(bitPattern: x0) < lastX && UInt(bitPattern: y0) < lastY {
                                    // Interior: all four neighbours exist; no per-sample bounds tests.
                                    let p = (input + (y0 &* sourceRowBytes &+ x0 &* 4)).assumingMemoryBound(to: UInt8.self)
                                    p00 = WorkingPixels.pixel8(p, table)
                                    p10 = WorkingPixels.pixel8(p + 4, table)
                                    p01 = WorkingPixels.pixel8(p + sourceRowBytes, table)
                                    p11 = WorkingPixels.pixel8(p + (sourceRowBytes &+ 4), table)
                                } else {
                                    p00 = sample(x0, y0); p10 = sample(x0 &+ 1, y0)
                                    p01 = sample(x0, y0 &+ 1); p11 = sample(x0 &+ 1, y0 &+ 1)
                                }
                                let top = p00 + (p10 - p00) * tx
                                let bottom = p01 + (p11 - p01) * tx
                                row[x] = top + (bottom - top) * ty
                            }
                            WorkingPixels.store(row, count: outputWidth, format: format, linear: false,
                                                into: out + y &* outputRowBytes)
                        }
                    }
                }
            }
        }
        return output
    }
}
