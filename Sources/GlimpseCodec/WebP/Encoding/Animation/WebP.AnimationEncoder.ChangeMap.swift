extension WebP.AnimationEncoder {
    /// Which pixels of a new canvas an animation frame must draw: those that differ
    /// from what the decoder shows by more than the tolerance, unless the source pixel
    /// is the same as in the previous canvas (then the decoder shows it as well as it
    /// did, and re-coding it would only add error).
    struct ChangeMap {
        let width: Int
        let height: Int
        /// Per pixel, row by row: it must be drawn.
        private(set) var changed: [Bool]
        /// The smallest rectangle with an even origin holding every changed pixel; the
        /// top-left pixel when none changed (a frame cannot be empty).
        private(set) var boundingRect: WebP.Compositor.Rect

        /// Compares `canvas` with the decoder's `below` and the source's `previous` (nil for
        /// the first frame), all RGBA8 of `width × height`; inside `disposed`, where `below` was
        /// cleared, only with `below`.
        init(_ canvas: [UInt8], below: [UInt8], previous: [UInt8]?, disposed: WebP.Compositor.Rect? = nil,
             width: Int, height: Int, tolerance: Int) {
            self.width = width
            self.height = height
            var changed = [Bool](repeating: false, count: width * height)
            var minX = width, minY = height, maxX = -1, maxY = -1
            let comparesPrevious = previous != nil, previousBytes = previous ?? []
            canvas.withUnsafeBytes { new in
                below.withUnsafeBytes { shown in
                    previousBytes.withUnsafeBytes { old in
                        for y in 0..<height {
                            for x in 0..<width {
                                let offset = (y * width + x) * 4
                                // Safe: all three canvases hold width × height RGBA8 pixels.
                                let pixel = new.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                                if comparesPrevious, old.loadUnaligned(fromByteOffset: offset, as: UInt32.self) == pixel,
                                   !(disposed.map { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY } ?? false) {
                                    continue
                                }
                                let under = shown.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                                if Self.isSimilar(pixel, under, tolerance: tolerance) { continue }
                                changed[y * width + x] = true
                                minX = min(minX, x); maxX = max(maxX, x)
                                minY = min(minY, y); maxY = max(maxY, y)
                            }
                        }
                    }
                }
            }
            self.changed = changed
            if maxX < 0 {
                boundingRect = WebP.Compositor.Rect(x: 0, y: 0, width: 1, height: 1)
            } else {
                minX &= ~1
                minY &= ~1
                boundingRect = WebP.Compositor.Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
            }
        }

        /// libwebp's test for a lossy frame (`PixelsAreSimilar`): the same alpha, and every
        /// colour channel within `tolerance` once weighted by it; lossless frames (0) need equality.
        @inline(__always)
        static func isSimilar(_ a: UInt32, _ b: UInt32, tolerance: Int) -> Bool {
            if a == b { return true }
            guard tolerance > 0 else { return false }
            let alpha = Int(a >> 24)
            guard alpha == Int(b >> 24) else { return false }
            let limit = tolerance * 255
            for shift: UInt32 in [0, 8, 16] {
                let difference = Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff)
                if abs(difference) * alpha > limit { return false }
            }
            return true
        }

        /// How many pixels of `rect` need not be drawn.
        func unchangedCount(in rect: WebP.Compositor.Rect) -> Int {
            var count = 0
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX where !changed[y * width + x] { count += 1 }
            }
            return count
        }

        /// `rect` of `canvas` to be blended: changed pixels as they are, the others
        /// transparent, so the canvas below shows through. Nil when some changed pixel is not
        /// opaque outside the rectangle `disposed` (there a decoder copies instead of blending):
        /// blending it would mix it with what lies below.
        ///
        /// Lossless frames make the transparent pixels transparent black. Lossy frames keep
        /// their colour, so that the visible pixels beside them code as smoothly as in the
        /// source, except in 8×8 blocks that are transparent throughout, which become their
        /// mean colour: nearly free to code.
        func blendedRegion(_ canvas: [UInt8], _ rect: WebP.Compositor.Rect, disposed: WebP.Compositor.Rect?,
                           keepsColorUnderTransparency keepsColor: Bool) -> [UInt8]? {
            var region = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX {
                    let source = (y * width + x) * 4
                    let target = ((y - rect.y) * rect.width + x - rect.x) * 4
                    if !changed[y * width + x] {
                        if keepsColor {
                            region[target] = canvas[source]
                            region[target + 1] = canvas[source + 1]
                            region[target + 2] = canvas[source + 2]
                        }
                        continue
                    }
                    let inDisposed = disposed.map { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY } ?? false
                    guard canvas[source + 3] == 255 || inDisposed else { return nil }
                    region.replaceSubrange(target..<target + 4, with: canvas[source..<source + 4])
                }
            }
            if keepsColor { Self.flattenTransparentBlocks(&region, width: rect.width, height: rect.height) }
            return region
        }

        /// Gives every 8×8 block (from the region's origin) whose pixels are all transparent
        /// the mean colour of those pixels.
        static func flattenTransparentBlocks(_ region: inout [UInt8], width: Int, height: Int) {
            for blockY in stride(from: 0, to: height, by: 8) {
                for blockX in stride(from: 0, to: width, by: 8) {
                    let maxX = min(blockX + 8, width), maxY = min(blockY + 8, height)
                    var sums = (0, 0, 0), transparent = true
                    for y in blockY..<maxY where transparent {
                        for x in blockX..<maxX {
                            let offset = (y * width + x) * 4
                            if region[offset + 3] != 0 { transparent = false; break }
                            sums.0 += Int(region[offset]); sums.1 += Int(region[offset + 1]); sums.2 += Int(region[offset + 2])
                        }
                    }
                    guard transparent else { continue }
                    let count = (maxX - blockX) * (maxY - blockY)
                    let mean = [UInt8(sums.0 / count), UInt8(sums.1 / count), UInt8(sums.2 / count), 0]
                    for y in blockY..<maxY {
                        for x in blockX..<maxX {
                            let offset = (y * width + x) * 4
                            region.replaceSubrange(offset..<offset + 4, with: mean)
                        }
                    }
                }
            }
        }
    }
}
