extension PNG {
    /// One pass of a (sub)image: the pixels at `x0 + i·dx`, `y0 + j·dy`.
    /// A non-interlaced image is a single pass with steps of 1.
    struct Pass: Sendable, Hashable {
        var x0, y0, dx, dy: Int
        var width, height: Int
        /// Bytes of one scanline without its filter byte.
        var rowBytes: Int

        var isEmpty: Bool { width == 0 || height == 0 }
        /// Bytes of the pass in the zlib stream (filter bytes included).
        var streamBytes: Int { isEmpty ? 0 : height &* (rowBytes &+ 1) }
    }

    /// Adam7 (PNG §8.2): seven passes over 8×8 blocks.
    enum Interlace {
        static let origins: [(x: Int, y: Int, dx: Int, dy: Int)] = [
            (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
        ]

        /// After pass `n` (1…7) is complete, every pixel whose coordinates are
        /// multiples of this block size is known; browsers draw each known pixel
        /// over its whole block.
        static let blockAfterPass: [(w: Int, h: Int)] = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2), (1, 1)]

        /// The passes of a `width`×`height` image (one pass when not interlaced).
        static func passes(header: Header, width: Int, height: Int) -> [Pass] {
            guard header.interlaced else {
                return [Pass(x0: 0, y0: 0, dx: 1, dy: 1, width: width, height: height,
                             rowBytes: header.rowBytes(width: width))]
            }
            return origins.map { o in
                let w = width > o.x ? (width - o.x + o.dx - 1) / o.dx : 0
                let h = height > o.y ? (height - o.y + o.dy - 1) / o.dy : 0
                return Pass(x0: o.x, y0: o.y, dx: o.dx, dy: o.dy, width: w, height: h, rowBytes: header.rowBytes(width: w))
            }
        }

        /// A copy of `pixels` where each pixel known after `completedPasses`
        /// passes fills its block, as a progressive preview.
        static func preview(_ pixels: PixelBuffer, completedPasses: Int) -> PixelBuffer {
            guard completedPasses >= 1, completedPasses < 7 else { return pixels }
            let block = blockAfterPass[completedPasses - 1]
            var out = pixels
            let bpp = pixels.format.bytesPerPixel
            let width = pixels.width
            pixels.bytes.withUnsafeBytes { source in
                out.bytes.withUnsafeMutableBytes { destination in
                    guard let src = source.baseAddress, let dst = destination.baseAddress else { return }
                    for y in 0..<pixels.height {
                        let sy = y & ~(block.h - 1)
                        for x in 0..<width {
                            let sx = x & ~(block.w - 1)
                            // (sx, sy) <= (x, y), both inside the image.
                            dst.advanced(by: (y &* width &+ x) &* bpp)
                                .copyMemory(from: src.advanced(by: (sy &* width &+ sx) &* bpp), byteCount: bpp)
                        }
                    }
                }
            }
            return out
        }
    }
}
