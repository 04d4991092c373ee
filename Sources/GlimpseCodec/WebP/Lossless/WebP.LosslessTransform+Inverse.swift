extension WebP.LosslessTransform {
    /// Undoes a predictor, cross-colour or subtract-green transform in place on
    /// `pixels` (`width` × `height`, row after row).
    func undoInPlace(_ pixels: UnsafeMutablePointer<UInt32>) {
        switch kind {
        case .predictor: undoPredictor(pixels)
        case .crossColor: undoCrossColor(pixels)
        case .subtractGreen: Self.undoSubtractGreen(pixels, count: width * height)
        case .colorIndexing: break
        }
    }

    /// Adds green back to red and blue (RFC 9649 §4.3).
    static func undoSubtractGreen(_ pixels: UnsafeMutablePointer<UInt32>, count: Int) {
        for index in 0..<count {
            // Safe: index < count, the caller's pixel count.
            let pixel = pixels[index]
            let green = (pixel >> 8) & 0xff
            let redBlue = ((pixel & 0x00ff_00ff) &+ (green << 16 | green)) & 0x00ff_00ff
            pixels[index] = (pixel & 0xff00_ff00) | redBlue
        }
    }

    /// Undoes the colour transform (RFC 9649 §4.2): red gains green × green_to_red,
    /// blue gains green × green_to_blue and the new red × red_to_blue, each
    /// product of signed bytes shifted right by 5.
    private func undoCrossColor(_ pixels: UnsafeMutablePointer<UInt32>) {
        data.withUnsafeBufferPointer { elements in
            for y in 0..<height {
                let row = pixels + y * width
                let elementRow = (y >> bits) * blocksWide
                for x in 0..<width {
                    // Safe: (y >> bits, x >> bits) lies inside the blocksWide-wide element image.
                    let element = elements[elementRow + (x >> bits)]
                    let greenToRed = Int(Int8(truncatingIfNeeded: element))
                    let greenToBlue = Int(Int8(truncatingIfNeeded: element >> 8))
                    let redToBlue = Int(Int8(truncatingIfNeeded: element >> 16))
                    let pixel = row[x]
                    let green = Int(Int8(truncatingIfNeeded: pixel >> 8))
                    var red = Int((pixel >> 16) & 0xff)
                    var blue = Int(pixel & 0xff)
                    red = (red &+ ((greenToRed &* green) >> 5)) & 0xff
                    blue = blue &+ ((greenToBlue &* green) >> 5)
                    blue = (blue &+ ((redToBlue &* Int(Int8(truncatingIfNeeded: red))) >> 5)) & 0xff
                    row[x] = (pixel & 0xff00_ff00) | UInt32(red) << 16 | UInt32(blue)
                }
            }
        }
    }

    /// Undoes the predictor transform (RFC 9649 §4.1): the top-left pixel is
    /// predicted by opaque black, the rest of the top row by L, the left column
    /// by T, every other pixel by its block's mode (14 and 15 act as mode 0, as in
    /// libwebp). The top-right neighbour of the last column is the first pixel of
    /// the current row, which is where it lies in memory.
    private func undoPredictor(_ pixels: UnsafeMutablePointer<UInt32>) {
        let add = Self.addPixels
        pixels[0] = add(pixels[0], 0xff00_0000)
        for x in 1..<max(width, 1) { pixels[x] = add(pixels[x], pixels[x - 1]) }
        guard height > 1 else { return }
        data.withUnsafeBufferPointer { modes in
            for y in 1..<height {
                let row = pixels + y * width
                let up = row - width
                row[0] = add(row[0], up[0])
                let modeRow = (y >> bits) * blocksWide
                var blockStart = 0
                var block = 0
                while blockStart < width {
                    let blockEnd = min(width, blockStart + (1 << bits))
                    let start = max(blockStart, 1)
                    // Safe: block < blocksWide and y >> bits < the mode image's height.
                    let mode = Int((modes[modeRow + block] >> 8) & 0xf)
                    if start < blockEnd {
                        Self.predictRun(mode: mode, row: row, up: up, from: start, to: blockEnd)
                    }
                    blockStart = blockEnd
                    block += 1
                }
            }
        }
    }

    /// Adds the prediction of `mode` to `row[from..<to]` (from ≥ 1, y ≥ 1). `up`
    /// is the previous row; `up[x + 1]` at the last column is `row[0]`.
    @inline(__always)
    private static func predictRun(mode: Int, row: UnsafeMutablePointer<UInt32>,
                                   up: UnsafeMutablePointer<UInt32>, from: Int, to: Int) {
        // Safe throughout: 1 <= x < width and y >= 1, so x - 1, x and x + 1 (at most
        // one past the previous row, i.e. row[0]) address decoded pixels.
        switch mode {
        case 1: for x in from..<to { row[x] = addPixels(row[x], row[x - 1]) }
        case 2: for x in from..<to { row[x] = addPixels(row[x], up[x]) }
        case 3: for x in from..<to { row[x] = addPixels(row[x], up[x + 1]) }
        case 4: for x in from..<to { row[x] = addPixels(row[x], up[x - 1]) }
        case 5: for x in from..<to { row[x] = addPixels(row[x], average(average(row[x - 1], up[x + 1]), up[x])) }
        case 6: for x in from..<to { row[x] = addPixels(row[x], average(row[x - 1], up[x - 1])) }
        case 7: for x in from..<to { row[x] = addPixels(row[x], average(row[x - 1], up[x])) }
        case 8: for x in from..<to { row[x] = addPixels(row[x], average(up[x - 1], up[x])) }
        case 9: for x in from..<to { row[x] = addPixels(row[x], average(up[x], up[x + 1])) }
        case 10:
            for x in from..<to {
                row[x] = addPixels(row[x], average(average(row[x - 1], up[x - 1]), average(up[x], up[x + 1])))
            }
        case 11: for x in from..<to { row[x] = addPixels(row[x], select(top: up[x], left: row[x - 1], topLeft: up[x - 1])) }
        case 12: for x in from..<to { row[x] = addPixels(row[x], clampAddSubtractFull(row[x - 1], up[x], up[x - 1])) }
        case 13: for x in from..<to { row[x] = addPixels(row[x], clampAddSubtractHalf(average(row[x - 1], up[x]), up[x - 1])) }
        default: for x in from..<to { row[x] = addPixels(row[x], 0xff00_0000) }
        }
    }

    /// Per-channel `(a + b) / 2`, rounded down.
    @inline(__always)
    static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xfefe_fefe) >> 1) &+ (a & b)
    }

    /// Mode 11: whichever of T and L is closer (Manhattan distance over the four
    /// channels) to the gradient estimate L + T − TL; T on a tie.
    @inline(__always)
    static func select(top: UInt32, left: UInt32, topLeft: UInt32) -> UInt32 {
        var leftDistance = 0   // Σ |L − TL|: how far T is from the estimate
        var topDistance = 0    // Σ |T − TL|: how far L is from the estimate
        var shift: UInt32 = 0
        while shift < 32 {
            let t = Int((top >> shift) & 0xff)
            let l = Int((left >> shift) & 0xff)
            let tl = Int((topLeft >> shift) & 0xff)
            leftDistance &+= abs(l - tl)
            topDistance &+= abs(t - tl)
            shift &+= 8
        }
        return leftDistance <= topDistance ? top : left
    }

    /// Mode 12: per channel, clamp(a + b − c) to 0...255.
    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        var result: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let value = Int((a >> shift) & 0xff) + Int((b >> shift) & 0xff) - Int((c >> shift) & 0xff)
            result |= UInt32(min(max(value, 0), 255)) << shift
            shift &+= 8
        }
        return result
    }

    /// Mode 13: per channel, clamp(a + (a − b) / 2) to 0...255, the division
    /// truncating toward zero as C's does.
    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var result: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let ca = Int((a >> shift) & 0xff)
            let value = ca + (ca - Int((b >> shift) & 0xff)) / 2
            result |= UInt32(min(max(value, 0), 255)) << shift
            shift &+= 8
        }
        return result
    }

    /// Replaces each bundle of indices in `source` (`codedWidth` wide) with palette
    /// colours in `target` (`width` wide) (RFC 9649 §4.4). Indices are in the
    /// green channel, the first pixel in the lowest bits.
    func undoColorIndexing(from source: UnsafePointer<UInt32>, to target: UnsafeMutablePointer<UInt32>) {
        data.withUnsafeBufferPointer { palette in
            if bits == 0 {
                for index in 0..<(width * height) {
                    // Safe: the palette has 256 entries, the index is a byte.
                    target[index] = palette[Int((source[index] >> 8) & 0xff)]
                }
                return
            }
            let perPixelBits = 8 >> bits
            let indexMask = UInt32((1 << perPixelBits) - 1)
            let bundleMask = (1 << bits) - 1
            for y in 0..<height {
                let sourceRow = source + y * codedWidth
                let targetRow = target + y * width
                for x in 0..<width {
                    let packed = sourceRow[x >> bits] >> 8
                    let shift = UInt32((x & bundleMask) * perPixelBits)
                    // Safe: the palette has 1 << perPixelBits entries, the index is masked to fit.
                    targetRow[x] = palette[Int((packed >> shift) & indexMask)]
                }
            }
        }
    }
}
