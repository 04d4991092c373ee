extension AVIF {
    /// Decoded planes to 8-bit straight-alpha RGBA in the 6-bit fixed point that libavif's
    /// 8-bit output takes when it can: libavif hands the conversion to libyuv whenever libyuv
    /// has constants for the matrix and range (BT.601, BT.709 and BT.2020, full and limited,
    /// and code point 12 over those primaries), and every build of libavif that browsers, Pillow
    /// and imagecodecs ship links libyuv. Its arithmetic, not H.273's, is then what users see:
    ///
    /// - R, G, B = clamp((y1 + c·(C − 128)) >> 6) with y1 = ((Y·257)·yg >> 16) + yb and the
    ///   coefficients rounded to 1/64 (the Cb→B one of every limited-range matrix capped at
    ///   2.0, 128/64, since libyuv's SIMD multiplies it as a byte);
    /// - 4:2:0 and 4:2:2 chroma upsampled to full size first, in integers: 3:1 across with
    ///   (3a + b + 2) >> 2, and 9:3:3:1 with (… + 8) >> 4 for 4:2:0, the first and last row
    ///   and column blended in one direction only;
    /// - samples deeper than 8 bits: 10-bit ones with alpha keep Y at 16-bit precision but cut
    ///   Cb and Cr to 8 bits (`I010`/`I210`/`I410`); 12-bit 4:2:0 with alpha takes chroma
    ///   nearest (`I012`); everything else deeper is shifted down to 8 bits first
    ///   (libavif's `avifImageDownshiftTo8bpc`);
    /// - alpha copied (shifted down alike), or rescaled as libavif's own `avifReformatAlpha`
    ///   does where libyuv leaves it; premultiplied colour divided back by alpha after the
    ///   rounding to 8 bits, with libyuv's table of 8.8 reciprocals (`ARGBUnattenuate`).
    ///
    /// The routes follow libavif 1.4's `reformat_libyuv.c` for a caller asking for RGB when the
    /// image has no alpha and RGBA when it has (Pillow, imagecodecs), and libyuv's C rows at the
    /// commit libavif 1.4 pins (`row_common.cc`, `scale_common.cc`, `scale_any.cc`), which its
    /// SIMD rows match. ``init(matrixCoefficients:colorPrimaries:isFullRange:)`` is `nil` where
    /// libavif falls back to its floating-point path (``YUVToRGB``), and so is
    /// ``convert(_:alpha:premultiplied:)`` for monochrome without alpha.
    struct FixedPointYUVToRGB: Sendable {
        /// One of libyuv's `YuvConstants`: Y gain (16.16, scaled by 257) and bias, and the four
        /// chroma coefficients in 1/64.
        struct Constants: Sendable, Equatable {
            let yg: Int, yb: Int, ub: Int, ug: Int, vg: Int, vr: Int
        }

        let constants: Constants

        /// libavif's `getLibYUVConstants`: BT.709 (1), BT.601 (5, 6 and unspecified 2),
        /// BT.2020 non-constant luminance (9), and chromaticity-derived (12) over BT.709,
        /// BT.601 or BT.2020 primaries; identity (0) only for monochrome, as BT.601.
        init?(matrixCoefficients: UInt16, colorPrimaries: UInt16, isFullRange: Bool, isMonochrome: Bool) {
            enum Family { case bt601, bt709, bt2020 }
            let family: Family
            switch matrixCoefficients {
            case 0 where isMonochrome: family = .bt601
            case 1: family = .bt709
            case 2, 5, 6: family = .bt601
            case 9: family = .bt2020
            case 12:
                switch colorPrimaries {
                case 1, 2: family = .bt709
                case 5, 6: family = .bt601
                case 9: family = .bt2020
                default: return nil
                }
            default: return nil
            }
            // libyuv's kYuvI601/JPEG/H709/F709/2020/V2020Constants.
            switch (family, isFullRange) {
            case (.bt601, false): constants = Constants(yg: 18997, yb: -1160, ub: 128, ug: 25, vg: 52, vr: 102)
            case (.bt601, true): constants = Constants(yg: 16320, yb: 32, ub: 113, ug: 22, vg: 46, vr: 90)
            case (.bt709, false): constants = Constants(yg: 18997, yb: -1160, ub: 128, ug: 14, vg: 34, vr: 115)
            case (.bt709, true): constants = Constants(yg: 16320, yb: 32, ub: 119, ug: 12, vg: 30, vr: 101)
            case (.bt2020, false): constants = Constants(yg: 19003, yb: -1160, ub: 128, ug: 12, vg: 42, vr: 107)
            case (.bt2020, true): constants = Constants(yg: 16320, yb: 32, ub: 120, ug: 11, vg: 37, vr: 94)
            }
        }

        /// RGBA8 of `color` and `alpha` (full-range samples of `alphaDepth` bits, the same size
        /// as `color`; checked by the caller), or `nil` where libavif would not call libyuv.
        func convert(_ color: DecodedPlanes, alpha: (samples: [UInt16], depth: Int)?, premultiplied: Bool) -> PixelBuffer? {
            let depth = color.bitDepth
            guard depth == 8 || depth == 10 || depth == 12 else { return nil }
            if color.isMonochrome && alpha == nil { return nil }  // no I400 → RGB24 row in libyuv
            var output = PixelBuffer(width: color.width, height: color.height, format: .rgba8)
            var route = Route.eightBit
            if alpha != nil && !color.isMonochrome {
                if depth == 10 {
                    route = .tenBit
                } else if depth == 12 && color.subsamplingX == 1 && color.subsamplingY == 1 {
                    route = .twelveBitNearest
                }
            }
            let shift = route == .eightBit ? depth - 8 : 0
            output.bytes.withUnsafeMutableBytes { raw in
                let out = raw.bindMemory(to: UInt8.self)
                fillColor(out, color, route: route, shift: shift)
                fillAlpha(out, alpha, route: route, isMonochrome: color.isMonochrome)
            }
            if premultiplied && alpha != nil { Self.unpremultiply(&output) }
            return output
        }

        /// Which libyuv entry point libavif reaches.
        private enum Route {
            /// 8-bit rows (`I444`/`I422`/`I420`/`I400ToARGB`…), samples shifted down first.
            case eightBit
            /// `I410`/`I210`/`I010ToARGB`: 10-bit Y, chroma upsampled at 10 bits then cut to 8.
            case tenBit
            /// `I012ToARGBMatrix`: 4:2:0 chroma taken nearest, no filter.
            case twelveBitNearest
        }

        private func fillColor(_ out: UnsafeMutableBufferPointer<UInt8>, _ color: DecodedPlanes, route: Route, shift: Int) {
            let width = color.width, height = color.height
            let maximum = UInt16((1 << color.bitDepth) - 1)
            let c = constants
            var u = [Int](repeating: 128, count: width), v = [Int](repeating: 128, count: width)
            for y in 0..<height {
                if !color.isMonochrome {
                    chromaRow(color, plane: 1, row: y, route: route, shift: shift, into: &u)
                    chromaRow(color, plane: 2, row: y, route: route, shift: shift, into: &v)
                }
                color.planes[0].withUnsafeBufferPointer { luma in
                    // Row y spans y·width..<(y + 1)·width of the width × height luma plane.
                    let row = y &* width
                    for x in 0..<width {
                        let sample = Int(min(luma[row &+ x], maximum))
                        // Y widened to 16 bits by repeating its top bits, as libyuv does.
                        let y32: Int
                        switch route {
                        case .eightBit: y32 = (sample >> shift) &* 0x0101
                        case .tenBit: y32 = sample << 6 | sample >> 4
                        case .twelveBitNearest: y32 = sample << 4 | sample >> 8
                        }
                        let y1 = ((y32 &* c.yg) >> 16) &+ c.yb
                        let ui = u[x] &- 128, vi = v[x] &- 128
                        let at = (row &+ x) &* 4
                        out[at] = Self.clamp((y1 &+ vi &* c.vr) >> 6)
                        out[at &+ 1] = Self.clamp((y1 &- (ui &* c.ug &+ vi &* c.vg)) >> 6)
                        out[at &+ 2] = Self.clamp((y1 &+ ui &* c.ub) >> 6)
                    }
                }
            }
        }

        /// Cb or Cr for every pixel of luma row `y`, as 8-bit values.
        private func chromaRow(_ color: DecodedPlanes, plane: Int, row y: Int, route: Route, shift: Int, into result: inout [Int]) {
            let width = color.width, height = color.height
            let chromaWidth = color.planeWidth(plane)
            let maximum = UInt16((1 << color.bitDepth) - 1)
            // 10-bit chroma is filtered at 10 bits and then cut; 8-bit routes cut first.
            let narrowing = route == .tenBit ? 2 : 0
            color.planes[plane].withUnsafeBufferPointer { samples in
                @inline(__always) func sample(_ row: Int, _ column: Int) -> Int {
                    Int(min(samples[row &* chromaWidth &+ column], maximum)) >> shift
                }
                @inline(__always) func store(_ x: Int, _ value: Int) { result[x] = min(value >> narrowing, 255) }
                if route == .twelveBitNearest {
                    for x in 0..<width { result[x] = min(sample(y >> 1, x >> 1) >> 4, 255) }
                    return
                }
                if color.subsamplingX == 0 {
                    for x in 0..<width { store(x, sample(y, x)) }
                    return
                }
                // 4:2:0: row 0, and the last row of an even height, come from one chroma row; every
                // other row blends chroma rows k and k + 1 (k = (y − 1) / 2), 3:1 towards the nearer.
                var near = y >> color.subsamplingY, far = near
                if color.subsamplingY == 1, y != 0, !(height % 2 == 0 && y == height - 1) {
                    let k = (y - 1) >> 1
                    (near, far) = y % 2 != 0 ? (k, k + 1) : (k + 1, k)
                }
                let vertical = near != far
                // ScaleRowUp2's edge rule: column 0 and column width − 1 take chroma column 0 and
                // (width − 1) / 2 unblended across; columns 1…(width − 1) & ~1 blend pairs.
                @inline(__always) func edge(_ column: Int) -> Int {
                    vertical ? (3 &* sample(near, column) &+ sample(far, column) &+ 2) >> 2 : sample(near, column)
                }
                let blended = (width - 1) & ~1
                if blended > 0 {
                    for x in 1...blended {
                        let pair = (x - 1) >> 1
                        let (a, b) = x % 2 != 0 ? (pair, pair + 1) : (pair + 1, pair)
                        if vertical {
                            store(x, (9 &* sample(near, a) &+ 3 &* sample(near, b) &+ 3 &* sample(far, a) &+ sample(far, b) &+ 8) >> 4)
                        } else {
                            store(x, (3 &* sample(near, a) &+ sample(near, b) &+ 2) >> 2)
                        }
                    }
                }
                store(0, edge(0))
                store(width - 1, edge((width - 1) / 2))
            }
        }

        private func fillAlpha(_ out: UnsafeMutableBufferPointer<UInt8>, _ alpha: (samples: [UInt16], depth: Int)?, route: Route,
                               isMonochrome: Bool) {
            guard let alpha else {
                for at in stride(from: 3, to: out.count, by: 4) { out[at] = 255 }
                return
            }
            let maximum = (1 << alpha.depth) - 1
            // libyuv copies alpha with its colour (shifted down like it) except for I400 and I012,
            // whose rows have no alpha; libavif then rescales it in float.
            let copiedByLibYUV = !isMonochrome && route != .twelveBitNearest
            let scale = Float(maximum)
            for (index, stored) in alpha.samples.enumerated() {
                let value = min(Int(stored), maximum)
                let a: Int
                if alpha.depth == 8 {
                    a = value
                } else if copiedByLibYUV {
                    a = min(value >> (alpha.depth - 8), 255)
                } else {
                    a = min(Int(0.5 + Float(value) / scale * 255), 255)
                }
                out[index &* 4 &+ 3] = UInt8(a)
            }
        }

        /// libyuv's `ARGBUnattenuate` as its x86 SIMD computes it: each colour byte, widened to
        /// 16 bits by repetition, times 65536 / alpha (8.8 fixed point), the top 16 bits kept.
        private static func unpremultiply(_ pixels: inout PixelBuffer) {
            pixels.bytes.withUnsafeMutableBytes { raw in
                let out = raw.bindMemory(to: UInt8.self)
                for at in stride(from: 0, to: out.count, by: 4) {
                    let a = Int(out[at &+ 3])
                    // fixed_invtbl8's low halves: 0 for 0, 0xFFFF for 1, 0x100 (1.0) for 255.
                    let reciprocal = a == 0 ? 0 : a == 1 ? 0xFFFF : a == 255 ? 0x100 : 0x10000 / a
                    for channel in 0..<3 {
                        let value = Int(out[at &+ channel])
                        out[at &+ channel] = clamp((value &* 257 &* reciprocal) >> 16)
                    }
                }
            }
        }

        @inline(__always)
        private static func clamp(_ value: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: value < 0 ? 0 : value > 255 ? 255 : value)
        }
    }
}
