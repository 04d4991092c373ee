extension GIF {
    /// Builds a frame's colour table: exactly, from the pixels, when they hold
    /// few enough colours; otherwise by median cut (Heckbert, "Color Image
    /// Quantization for Frame Buffer Display", 1982), with optional
    /// Floyd–Steinberg error diffusion when mapping pixels to it.
    struct Quantizer {
        /// A colour as 0x00RRGGBB.
        typealias Color = UInt32

        /// The palette (RGB) and the index of each pixel.
        struct Result {
            var palette: [Color]
            var indices: [UInt8]
            /// The index used for transparent pixels, if any pixel is transparent.
            var transparentIndex: Int?
            /// Whether every pixel kept its exact colour.
            var isExact: Bool
        }

        /// Maps the `width`×`height` pixels of `rgba` (alpha < 128 = transparent)
        /// to at most 256 palette entries, one of them the transparent index when needed
        /// (and, with `reserveTransparent`, whenever that costs no colour).
        static func quantize(_ rgba: [UInt8], width: Int, height: Int, dither: Bool,
                             reserveTransparent: Bool = false) -> Result {
            let count = width * height
            var histogram = ColorHistogram()
            var hasTransparency = false
            for i in 0..<count {
                let p = i * 4
                if rgba[p + 3] < 128 { hasTransparency = true; continue }
                histogram.add(UInt32(rgba[p]) << 16 | UInt32(rgba[p + 1]) << 8 | UInt32(rgba[p + 2]))
            }
            if reserveTransparent, histogram.count < 256 { hasTransparency = true }
            let room = hasTransparency ? 255 : 256
            var palette: [Color]
            let exact = histogram.count <= room
            if exact {
                palette = histogram.entries.map(\.color).sorted()
                for (i, color) in palette.enumerated() {
                    if let slot = histogram.slot(of: color) { histogram.values[slot] = UInt8(i) }
                }
            } else {
                palette = medianCut(histogram.entries, colors: room)
            }
            // Transparent pixels get their index at the end, once the palette's order is final.
            var indices = [UInt8](repeating: 0, count: count)
            if exact {
                for i in 0..<count {
                    let p = i * 4
                    if rgba[p + 3] < 128 { continue }
                    let color = UInt32(rgba[p]) << 16 | UInt32(rgba[p + 1]) << 8 | UInt32(rgba[p + 2])
                    indices[i] = histogram.slot(of: color).map { histogram.values[$0] } ?? 0
                }
            } else {
                var mapper = NearestColor(palette: palette)
                if dither {
                    floydSteinberg(rgba, width: width, height: height, mapper: &mapper, into: &indices)
                } else {
                    for i in 0..<count {
                        let p = i * 4
                        if rgba[p + 3] < 128 { continue }
                        indices[i] = mapper.index(Int(rgba[p]), Int(rgba[p + 1]), Int(rgba[p + 2]))
                    }
                }
            }
            if hasTransparency {
                // The transparent index goes first: index 0 is what Pillow fills a
                // disposal-2 rectangle with and then reads through the next frame's
                // palette, where 0 is transparent too. Its colour repeats the first real
                // one, so that the table never looks like Pillow's identity grey ramp
                // (0,0,0), (1,1,1)…, which Pillow decodes as greyscale and then fails on.
                palette.insert(palette.first ?? 0, at: 0)
                for i in 0..<count { indices[i] = rgba[i * 4 + 3] < 128 ? 0 : indices[i] &+ 1 }
            }
            return Result(palette: palette, indices: indices, transparentIndex: hasTransparency ? 0 : nil, isExact: exact)
        }

        /// Splits the colour cube into `colors` boxes, each time cutting the box with
        /// the most pixels along its longest side at the weighted median.
        static func medianCut(_ histogram: [(color: Color, count: Int)], colors: Int) -> [Color] {
            struct Box {
                var entries: ArraySlice<(color: Color, count: Int)>
                var weight: Int
                init(entries: ArraySlice<(color: Color, count: Int)>) {
                    self.entries = entries
                    weight = entries.reduce(0) { $0 + $1.count }
                }
            }
            let all = histogram.sorted { $0.color < $1.color }
            var boxes = [Box(entries: all[...])]
            while boxes.count < colors {
                // The heaviest box that can still be split.
                guard let target = boxes.indices.filter({ boxes[$0].entries.count > 1 })
                    .max(by: { boxes[$0].weight < boxes[$1].weight }) else { break }
                var entries = Array(boxes[target].entries)
                var lo = [255, 255, 255], hi = [0, 0, 0]
                for entry in entries {
                    for c in 0..<3 {
                        let v = Int(entry.color >> UInt32(16 - 8 * c) & 0xFF)
                        lo[c] = min(lo[c], v); hi[c] = max(hi[c], v)
                    }
                }
                let axis = (0..<3).max { hi[$0] - lo[$0] < hi[$1] - lo[$1] } ?? 0
                let shift = UInt32(16 - 8 * axis)
                entries.sort { ($0.color >> shift) & 0xFF < ($1.color >> shift) & 0xFF }
                let half = entries.reduce(0) { $0 + $1.count } / 2
                var running = 0
                var cut = 1
                for (i, entry) in entries.enumerated() {
                    running += entry.count
                    if running >= half { cut = max(1, min(entries.count - 1, i + 1)); break }
                }
                boxes[target] = Box(entries: entries[..<cut])
                boxes.append(Box(entries: entries[cut...]))
            }
            return boxes.map { box in
                var sum = [0, 0, 0], weight = 0
                for entry in box.entries {
                    for c in 0..<3 { sum[c] += Int(entry.color >> UInt32(16 - 8 * c) & 0xFF) * entry.count }
                    weight += entry.count
                }
                let w = max(1, weight)
                return Color((sum[0] + w / 2) / w) << 16 | Color((sum[1] + w / 2) / w) << 8 | Color((sum[2] + w / 2) / w)
            }
        }

        /// Error diffusion with the 7/16, 3/16, 5/16, 1/16 weights, row by row.
        static func floydSteinberg(_ rgba: [UInt8], width: Int, height: Int, mapper: inout NearestColor,
                                   into indices: inout [UInt8]) {
            var current = [Int](repeating: 0, count: (width + 2) * 3)
            var below = [Int](repeating: 0, count: (width + 2) * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let p = (y * width + x) * 4
                    if rgba[p + 3] < 128 { continue }
                    let e = (x + 1) * 3
                    let r = min(255, max(0, Int(rgba[p]) + current[e] / 16))
                    let g = min(255, max(0, Int(rgba[p + 1]) + current[e + 1] / 16))
                    let b = min(255, max(0, Int(rgba[p + 2]) + current[e + 2] / 16))
                    let index = mapper.index(r, g, b)
                    indices[y * width + x] = index
                    let chosen = mapper.palette[Int(index)]
                    let error = [r - Int(chosen >> 16 & 0xFF), g - Int(chosen >> 8 & 0xFF), b - Int(chosen & 0xFF)]
                    for c in 0..<3 {
                        current[e + 3 + c] += error[c] * 7
                        below[e - 3 + c] += error[c] * 3
                        below[e + c] += error[c] * 5
                        below[e + 3 + c] += error[c]
                    }
                }
                swap(&current, &below)
                for i in below.indices { below[i] = 0 }
            }
        }

        /// Nearest palette entry by squared RGB distance, cached on a 5-bit-per-channel grid.
        struct NearestColor {
            let palette: [Color]
            private var cache: [Int16]

            init(palette: [Color]) {
                self.palette = palette
                cache = [Int16](repeating: -1, count: 1 << 15)
            }

            mutating func index(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
                let key = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
                if cache[key] >= 0 { return UInt8(cache[key]) }
                var best = 0, bestDistance = Int.max
                for (i, color) in palette.enumerated() {
                    let dr = r - Int(color >> 16 & 0xFF), dg = g - Int(color >> 8 & 0xFF), db = b - Int(color & 0xFF)
                    let distance = dr * dr * 2 + dg * dg * 4 + db * db * 3
                    if distance < bestDistance { bestDistance = distance; best = i }
                }
                cache[key] = Int16(best)
                return UInt8(best)
            }
        }
    }
}
