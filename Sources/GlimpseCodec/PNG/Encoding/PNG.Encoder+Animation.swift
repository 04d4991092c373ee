extension PNG.Encoder {
    /// Encodes every frame of `image` as an APNG (APNG specification 1.0) that
    /// plays `image.loopCount` times (0 = forever); a single frame gives a still PNG.
    ///
    /// Frame 0 is the default image (IDAT, with an fcTL before it). Each later
    /// frame stores only the rectangle that changed since the previous canvas,
    /// drawn with blend op SOURCE and dispose op NONE, so decoding gives back
    /// exactly the composed frames. Delays are written in milliseconds
    /// (rounded; at most 65.535 s, or 655.35 s in centiseconds).
    public func encodeAnimation(_ image: Image) throws(EncodingError) -> [UInt8] {
        let frames = image.frames
        guard let first = frames.first, first.pixels.width > 0, first.pixels.height > 0 else {
            throw .invalidImage("no frames")
        }
        guard frames.count > 1 else { return try encode(image) }
        for frame in frames where frame.pixels.width != first.pixels.width || frame.pixels.height != first.pixels.height
            || frame.pixels.format != first.pixels.format {
            throw .invalidImage("frames differ in size or format")
        }
        let width = first.pixels.width, height = first.pixels.height
        let layout = try layout(for: frames.map(\.pixels))
        var writer = begin(width: width, height: height, layout: layout, metadata: image.metadata)
        var actl: [UInt8] = []
        actl.appendBigEndian(UInt32(frames.count))
        actl.appendBigEndian(UInt32(max(0, min(Int(Int32.max), image.loopCount))))
        writer.write(.acTL, actl)
        let scanlines = PNG.ScanlineEncoder(layout: layout, interlaced: options.interlaced, filtering: options.filtering)
        var sequence = 0
        for (index, frame) in frames.enumerated() {
            let region = index == 0 ? (x: 0, y: 0, width: width, height: height)
                : Self.changedRegion(frames[index - 1].pixels, frame.pixels)
            writer.write(.fcTL, frameControl(sequence: sequence, region: region, duration: frame.duration))
            sequence += 1
            let data = scanlines.scanlines(of: frame.pixels, x: region.x, y: region.y, width: region.width, height: region.height)
            let compressed = PNG.Deflate.compress(data, level: options.compressionLevel)
            if index == 0 {
                writeIDAT(compressed, into: &writer)
            } else {
                writeFDAT(compressed, into: &writer, sequence: &sequence)
            }
        }
        writer.write(.IEND, [])
        return writer.bytes
    }

    private func frameControl(sequence: Int, region: (x: Int, y: Int, width: Int, height: Int), duration: Duration) -> [UInt8] {
        var data: [UInt8] = []
        data.appendBigEndian(UInt32(sequence))
        data.appendBigEndian(UInt32(region.width))
        data.appendBigEndian(UInt32(region.height))
        data.appendBigEndian(UInt32(region.x))
        data.appendBigEndian(UInt32(region.y))
        let (seconds, attoseconds) = duration.components
        // Clamped before multiplying: any Duration is accepted without trapping.
        let milliseconds = max(0, min(655_350, seconds) * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000)
        if milliseconds <= 65_535 {
            data.appendBigEndian(UInt16(milliseconds))
            data.appendBigEndian(UInt16(1000))
        } else {
            data.appendBigEndian(UInt16(min(65_535, (milliseconds + 5) / 10)))
            data.appendBigEndian(UInt16(100))
        }
        data.append(PNG.DisposeOp.none.rawValue)
        data.append(PNG.BlendOp.source.rawValue)
        return data
    }

    /// The bounding box of the pixels that differ (1×1 at the origin when none do).
    static func changedRegion(_ previous: PixelBuffer, _ next: PixelBuffer) -> (x: Int, y: Int, width: Int, height: Int) {
        let bpp = next.format.bytesPerPixel
        var minX = next.width, minY = next.height, maxX = -1, maxY = -1
        previous.bytes.withUnsafeBytes { a in
            next.bytes.withUnsafeBytes { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return }
                for y in 0..<next.height {
                    let row = y * next.bytesPerRow
                    if memcmpEqual(pa + row, pb + row, next.bytesPerRow) { continue }
                    minY = min(minY, y)
                    maxY = y
                    for x in 0..<next.width where !memcmpEqual(pa + row + x * bpp, pb + row + x * bpp, bpp) {
                        minX = min(minX, x)
                        maxX = max(maxX, x)
                    }
                }
            }
        }
        guard maxX >= 0 else { return (0, 0, 1, 1) }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    private static func memcmpEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        // Both ranges lie inside same-sized buffers (callers pass offsets within a row).
        UnsafeRawBufferPointer(start: a, count: count).elementsEqual(UnsafeRawBufferPointer(start: b, count: count))
    }
}
