extension WebP.LosslessTransform {
    // Each transform is undone one row at a time (the row pipeline feeds rows as
    // the entropy decoder finishes them, so they are still in cache): `source` is
    // this transform's input row, `target` its output row; they may be the same
    // buffer except for colour indexing, which widens the row.

    /// Adds green back to red and blue (RFC 9649 §4.3).
    static func undoSubtractGreen(_ source: UnsafePointer<UInt32>, _ target: UnsafeMutablePointer<UInt32>,
                                  count: Int) {
        for index in 0..<count {
            // Safe: index < count, the row's width.
            let pixel = source[index]
            let green = (pixel >> 8) & 0xff
            let redBlue = ((pixel & 0x00ff_00ff) &+ (green << 16 | green)) & 0x00ff_00ff
            target[index] = (pixel & 0xff00_ff00) | redBlue
        }
    }

    /// Undoes the colour transform of row `y` (RFC 9649 §4.2): red gains
    /// green × green_to_red, blue gains green × green_to_blue and the new
    /// red × red_to_blue, each product of signed bytes shifted right by 5.
    func undoCrossColor(row y: Int, _ source: UnsafePointer<UInt32>, _ target: UnsafeMutablePointer<UInt32>) {
        data.withUnsafeBufferPointer { elements in
            let elementRow = (y >> bits) * blocksWide
            var blockStart = 0
            var block = 0
            while blockStart < width {
                let blockEnd = min(width, blockStart &+ (1 << bits))
                // Safe: (y >> bits, block) lies inside the blocksWide-wide element image.
                let element = elements[elementRow &+ block]
                let greenToRed = Int32(Int8(truncatingIfNeeded: element))
                let greenToBlue = Int32(Int8(truncatingIfNeeded: element >> 8))
                let redToBlue = Int32(Int8(truncatingIfNeeded: element >> 16))
                // Eight pixels a step in 16-bit lanes (the products of two signed bytes fit).
                let toRed = SIMD8<Int16>(repeating: Int16(greenToRed))
                let toBlue = SIMD8<Int16>(repeating: Int16(greenToBlue))
                let redToBlueLanes = SIMD8<Int16>(repeating: Int16(redToBlue))
                var vectorEnd = blockStart
                while blockEnd - vectorEnd >= 8 {
                    // Safe: vectorEnd + 8 <= blockEnd <= width, inside both rows.
                    let pixels = UnsafeRawPointer(source + vectorEnd).loadUnaligned(as: SIMD8<UInt32>.self)
                    let green = (SIMD8<Int16>(truncatingIfNeeded: pixels &>> 8) &<< 8) &>> 8
                    let red0 = SIMD8<Int16>(truncatingIfNeeded: pixels &>> 16) & 0xff
                    let blue0 = SIMD8<Int16>(truncatingIfNeeded: pixels) & 0xff
                    let red = (red0 &+ ((toRed &* green) &>> 5)) & 0xff
                    let signedRed = (red &<< 8) &>> 8
                    let blue = (blue0 &+ ((toBlue &* green) &>> 5) &+ ((redToBlueLanes &* signedRed) &>> 5)) & 0xff
                    let result = (pixels & 0xff00_ff00) | (SIMD8<UInt32>(truncatingIfNeeded: red) &<< 16)
                        | SIMD8<UInt32>(truncatingIfNeeded: blue)
                    UnsafeMutableRawPointer(target + vectorEnd).storeBytes(of: result, as: SIMD8<UInt32>.self)
                    vectorEnd &+= 8
                }
                for x in vectorEnd..<blockEnd {
                    let pixel = source[x]
                    let green = Int32(Int8(truncatingIfNeeded: pixel >> 8))
                    let red = (Int32((pixel >> 16) & 0xff) &+ ((greenToRed &* green) >> 5)) & 0xff
                    var blue = Int32(pixel & 0xff) &+ ((greenToBlue &* green) >> 5)
                    blue = (blue &+ ((redToBlue &* Int32(Int8(truncatingIfNeeded: red))) >> 5)) & 0xff
                    target[x] = (pixel & 0xff00_ff00) | UInt32(red) << 16 | UInt32(blue)
                }
                blockStart = blockEnd
                block &+= 1
            }
        }
    }

    /// Undoes the predictor transform for row `y` (RFC 9649 §4.1): the top-left
    /// pixel is predicted by opaque black, the rest of the top row by L, the left
    /// column by T, every other pixel by its block's mode (14 and 15 act as mode 0,
    /// as in libwebp). `up` is the previous output row with room for one more
    /// pixel: the top-right neighbour of the last column is the first pixel of
    /// the current row (where it lies in the image's memory), so it is stored
    /// there before the row is predicted.
    func undoPredictor(row y: Int, _ source: UnsafePointer<UInt32>, _ target: UnsafeMutablePointer<UInt32>,
                       up: UnsafeMutablePointer<UInt32>) {
        let add = Self.addPixels
        if y == 0 {
            target[0] = add(source[0], 0xff00_0000)
            if width > 1 { Self.addLeftRun(source: source, row: target, from: 1, to: width) }
            return
        }
        target[0] = add(source[0], up[0])
        up[width] = target[0]
        data.withUnsafeBufferPointer { modes in
            let modeRow = (y >> bits) * blocksWide
            var blockStart = 0
            var block = 0
            while blockStart < width {
                let blockEnd = min(width, blockStart &+ (1 << bits))
                let start = max(blockStart, 1)
                // Safe: block < blocksWide and y >> bits < the mode image's height.
                let mode = Int((modes[modeRow &+ block] >> 8) & 0xf)
                if start < blockEnd {
                    Self.predictRun(mode: mode, source: source, row: target, up: up, from: start, to: blockEnd)
                }
                blockStart = blockEnd
                block &+= 1
            }
        }
    }

    /// `row[x] = source[x] + prediction` for x in `from..<to` (from ≥ 1, y ≥ 1);
    /// `up` is the previous output row, `up[width]` the current row's first pixel.
    @inline(__always)
    private static func predictRun(mode: Int, source: UnsafePointer<UInt32>, row: UnsafeMutablePointer<UInt32>,
                                   up: UnsafeMutablePointer<UInt32>, from: Int, to: Int) {
        // Safe throughout: 1 <= x < width and y >= 1, so x - 1, x and x + 1 (at most
        // one past the previous row, i.e. row[0]) address decoded pixels.
        // Modes that predict from the row above only: four pixels a step, bytewise.
        @inline(__always) func fromAbove(_ prediction: (Int) -> SIMD16<UInt8>, _ scalar: (Int) -> UInt32) {
            var x = from
            while to - x >= 4 {
                // Safe: x + 4 <= to <= width; the predictions read up[x - 1 ... x + 4], inside the
                // previous row and its extra pixel.
                let residual = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(row + x).storeBytes(of: residual &+ prediction(x), as: SIMD16<UInt8>.self)
                x &+= 4
            }
            while x < to {
                row[x] = addPixels(source[x], scalar(x))
                x &+= 1
            }
        }
        @inline(__always) func above(_ offset: Int) -> (Int) -> SIMD16<UInt8> {
            { x in UnsafeRawPointer(up + x + offset).loadUnaligned(as: SIMD16<UInt8>.self) }
        }
        @inline(__always) func averageBytes(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
            (a & b) &+ ((a ^ b) &>> 1)
        }
        switch mode {
        case 1: addLeftRun(source: source, row: row, from: from, to: to)
        case 2: fromAbove(above(0)) { up[$0] }
        case 3: fromAbove(above(1)) { up[$0 + 1] }
        case 4: fromAbove(above(-1)) { up[$0 - 1] }
        case 5: for x in from..<to { row[x] = addPixels(source[x], average(average(row[x - 1], up[x + 1]), up[x])) }
        case 6: for x in from..<to { row[x] = addPixels(source[x], average(row[x - 1], up[x - 1])) }
        case 7: for x in from..<to { row[x] = addPixels(source[x], average(row[x - 1], up[x])) }
        case 8: fromAbove({ averageBytes(above(-1)($0), above(0)($0)) }) { average(up[$0 - 1], up[$0]) }
        case 9: fromAbove({ averageBytes(above(0)($0), above(1)($0)) }) { average(up[$0], up[$0 + 1]) }
        case 10:
            for x in from..<to {
                row[x] = addPixels(source[x], average(average(row[x - 1], up[x - 1]), average(up[x], up[x + 1])))
            }
        case 11: for x in from..<to { row[x] = addPixels(source[x], select(top: up[x], left: row[x - 1], topLeft: up[x - 1])) }
        case 12: for x in from..<to { row[x] = addPixels(source[x], clampAddSubtractFull(row[x - 1], up[x], up[x - 1])) }
        case 13: for x in from..<to { row[x] = addPixels(source[x], clampAddSubtractHalf(average(row[x - 1], up[x]), up[x - 1])) }
        default:
            let black = SIMD16<UInt8>(0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff, 0, 0, 0, 0xff)
            fromAbove({ _ in black }) { _ in 0xff00_0000 }
        }
    }

    /// Mode 1 (L) for x in `from..<to` (from ≥ 1), four pixels a step as libwebp's
    /// SSE2 `PredictorAdd1`: the bytewise running sum of the four residuals (each
    /// plus the one before, then plus the pair before) plus the pixel left of them,
    /// so the chain from pixel to pixel is one add per four.
    @inline(__always)
    private static func addLeftRun(source: UnsafePointer<UInt32>, row: UnsafeMutablePointer<UInt32>, from: Int, to: Int) {
        typealias Bytes = SIMD16<UInt8>
        typealias Pixels = SIMD4<UInt32>
        @inline(__always) func bytes(_ p: Pixels) -> Bytes { unsafeBitCast(p, to: Bytes.self) }
        var x = from
        // Safe: from ≥ 1, so row[from - 1] is decoded.
        var left = Pixels(repeating: row[x &- 1])
        while to &- x >= 4 {
            // Safe: x + 4 <= to <= the row's width.
            let residuals = UnsafeRawPointer(source + x).loadUnaligned(as: Pixels.self)
            // Lane lists with zeros, which compile to byte shifts of the vector (`pslldq`).
            let pairs = unsafeBitCast(bytes(residuals) &+ bytes(Pixels(0, residuals[0], residuals[1], residuals[2])),
                                      to: Pixels.self)
            let sums = bytes(pairs) &+ bytes(Pixels(0, 0, pairs[0], pairs[1]))
            let pixels = unsafeBitCast(sums &+ bytes(left), to: Pixels.self)
            UnsafeMutableRawPointer(row + x).storeBytes(of: pixels, as: Pixels.self)
            left = Pixels(repeating: pixels[3])
            x &+= 4
        }
        while x < to {
            row[x] = addPixels(source[x], row[x &- 1])
            x &+= 1
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
        @inline(__always) func channelDifference(_ shift: UInt32) -> Int32 {
            let t = Int32((top >> shift) & 0xff)
            let l = Int32((left >> shift) & 0xff)
            let tl = Int32((topLeft >> shift) & 0xff)
            // |L − TL| is how far T lies from the estimate, |T − TL| how far L does.
            return abs(l &- tl) &- abs(t &- tl)
        }
        let sum = channelDifference(24) &+ channelDifference(16) &+ channelDifference(8) &+ channelDifference(0)
        return sum <= 0 ? top : left
    }

    /// Clamps to 0...255 (values come from sums of a few bytes, far from overflow).
    @inline(__always)
    private static func clampByte(_ value: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// Mode 12: per channel, clamp(a + b − c) to 0...255.
    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let value = Int32((a >> shift) & 0xff) &+ Int32((b >> shift) & 0xff) &- Int32((c >> shift) & 0xff)
            return clampByte(value) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }

    /// Mode 13: per channel, clamp(a + (a − b) / 2) to 0...255, the division
    /// truncating toward zero as C's does.
    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let ca = Int32((a >> shift) & 0xff)
            return clampByte(ca &+ (ca &- Int32((b >> shift) & 0xff)) / 2) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }

    /// Replaces the bundles of palette indices of row `source` (`codedWidth`
    /// pixels) with palette colours in `target` (`width` pixels) (RFC 9649 §4.4).
    /// Indices are in the green channel, the first pixel in the lowest bits.
    func undoColorIndexing(_ source: UnsafePointer<UInt32>, _ target: UnsafeMutablePointer<UInt32>) {
        data.withUnsafeBufferPointer { palette in
            if bits == 0 {
                for x in 0..<width {
                    // Safe: the palette has 256 entries, the index is a byte.
                    target[x] = palette[Int((source[x] >> 8) & 0xff)]
                }
                return
            }
            let perPixelBits = UInt32(8 >> bits)
            let indexMask = UInt32((1 << perPixelBits) - 1)
            let perWord = 1 << bits
            // One coded word at a time, its indices shifted out lowest first.
            var x = 0, word = 0
            while x < width {
                // Safe: word < codedWidth = ceil(width / perWord) while x < width.
                var packed = source[word] >> 8
                let end = Swift.min(x &+ perWord, width)
                while x < end {
                    // Safe: the palette has 1 << perPixelBits entries, the index is masked to fit.
                    target[x] = palette[Int(packed & indexMask)]
                    packed >>= perPixelBits
                    x &+= 1
                }
                word &+= 1
            }
        }
    }
}
