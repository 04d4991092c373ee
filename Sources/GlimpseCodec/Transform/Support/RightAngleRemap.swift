/// Lossless rearrangement of pixels by one of the eight symmetries of a
/// rectangle (flips, quarter turns, transpositions), named by the EXIF
/// orientation that it undoes (EXIF 2.32 §4.6.4 A, tag 0x0112).
///
/// Applying `orientation` to stored pixels gives the upright image. Output
/// pixel (x, y) reads source pixel `base + x·dx + y·dy` (in pixels), so every
/// case is one loop; it walks 32×32 tiles so that quarter turns, which read
/// the source down its columns, stay within the cache.
enum RightAngleRemap {
    static func apply(_ orientation: Orientation, to source: PixelBuffer) -> PixelBuffer {
        if orientation == .up { return source }
        let w = source.width, h = source.height
        let outWidth = orientation.swapsDimensions ? h : w
        let outHeight = orientation.swapsDimensions ? w : h
        var output = PixelBuffer(width: outWidth, height: outHeight, format: source.format)
        guard w > 0, h > 0 else { return output }
        let lastRow = (h - 1) * w, lastColumn = w - 1
        let (base, dx, dy): (Int, Int, Int) = switch orientation {
        case .up: (0, 1, w)
        case .upMirrored: (lastColumn, -1, w)
        case .down: (lastRow + lastColumn, -1, -w)
        case .downMirrored: (lastRow, 1, -w)
        case .leftMirrored: (0, w, 1)
        case .right: (lastRow, -w, 1)
        case .rightMirrored: (lastRow + lastColumn, -w, -1)
        case .left: (lastColumn, w, -1)
        }
        switch source.format {
        case .rgba8: copy(UInt32.self, source, into: &output, base: base, dx: dx, dy: dy)
        case .rgba16: copy(UInt64.self, source, into: &output, base: base, dx: dx, dy: dy)
        }
        return output
    }

    private static func copy<Pixel: FixedWidthInteger>(_: Pixel.Type, _ source: PixelBuffer, into output: inout PixelBuffer,
                                                        base: Int, dx: Int, dy: Int) {
        let width = output.width, height = output.height
        let size = MemoryLayout<Pixel>.size
        let tile = 32
        source.bytes.withUnsafeBytes { input in
            output.bytes.withUnsafeMutableBytes { out in
                // The eight (base, dx, dy) triples map every output pixel of the
                // output's extent to a pixel inside the source, so no read strays.
                for tileY in stride(from: 0, to: height, by: tile) {
                    let endY = min(tileY + tile, height)
                    for tileX in stride(from: 0, to: width, by: tile) {
                        let endX = min(tileX + tile, width)
                        for y in tileY..<endY {
                            var from = base &+ y &* dy &+ tileX &* dx
                            var to = y &* width &+ tileX
                            for _ in tileX..<endX {
                                let pixel = input.loadUnaligned(fromByteOffset: from &* size, as: Pixel.self)
                                out.storeBytes(of: pixel, toByteOffset: to &* size, as: Pixel.self)
                                from &+= dx
                                to &+= 1
                            }
                        }
                    }
                }
            }
        }
    }
}
