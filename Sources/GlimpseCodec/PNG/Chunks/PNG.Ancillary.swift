extension PNG {
    /// Parsers for the ancillary chunks that feed ``ImageMetadata``. Each one
    /// returns `nil` (the chunk is then ignored) rather than failing: a broken
    /// ancillary chunk never costs the pixels (PNG §5.4).
    enum Ancillary {
        /// gAMA (PNG §11.3.3.2): gamma × 100 000.
        static func gamma(_ data: [UInt8]) -> Double? {
            guard data.count == 4 else { return nil }
            let value = data.withUnsafeBytes { $0.bigEndianUInt32(at: 0) }
            return value == 0 ? nil : Double(value) / 100_000
        }

        /// cHRM (PNG §11.3.3.1): eight values × 100 000.
        static func chromaticities(_ data: [UInt8]) -> Chromaticities? {
            guard data.count == 32 else { return nil }
            let v = data.withUnsafeBytes { raw in (0..<8).map { Double(raw.bigEndianUInt32(at: $0 * 4)) / 100_000 } }
            return Chromaticities(whiteX: v[0], whiteY: v[1], redX: v[2], redY: v[3],
                                  greenX: v[4], greenY: v[5], blueX: v[6], blueY: v[7])
        }

        /// sRGB (PNG §11.3.3.5): the rendering intent 0…3.
        static func sRGBIntent(_ data: [UInt8]) -> UInt8? {
            guard data.count == 1, data[0] <= 3 else { return nil }
            return data[0]
        }

        /// cICP (PNG Third Edition §11.3.2.6): H.273 colour primaries, transfer function,
        /// matrix coefficients (0: PNG holds RGB) and the full-range flag. Another matrix, or a
        /// flag other than 0 or 1, makes the chunk invalid.
        static func codePoints(_ data: [UInt8]) -> CodingIndependentCodePoints? {
            guard data.count == 4, data[2] == 0, data[3] <= 1 else { return nil }
            return CodingIndependentCodePoints(colorPrimaries: UInt16(data[0]), transferCharacteristics: UInt16(data[1]),
                                               matrixCoefficients: 0, isFullRange: data[3] == 1)
        }

        /// pHYs (PNG §11.3.5.3): pixels per unit on each axis; unit 1 is the metre.
        static func density(_ data: [UInt8]) -> PixelDensity? {
            guard data.count == 9, data[8] <= 1 else { return nil }
            let (x, y) = data.withUnsafeBytes { (Int($0.bigEndianUInt32(at: 0)), Int($0.bigEndianUInt32(at: 4))) }
            return PixelDensity(horizontal: x, vertical: y, unit: data[8] == 1 ? .perMeter : .aspectRatio)
        }

        /// iCCP (PNG §11.3.3.3): a 1–79 byte name, a zero, compression method 0
        /// and the zlib-compressed profile, inflated to at most `maxBytes`.
        static func iccProfile(_ data: [UInt8], maxBytes: Int) -> [UInt8]? {
            guard let zero = data.prefix(80).firstIndex(of: 0), zero >= 1, zero + 1 < data.count,
                  data[zero + 1] == 0 else { return nil }
            return inflateAll(data[(zero + 2)...], maxBytes: maxBytes)
        }

        /// Inflates a whole zlib stream, giving up past `maxBytes` of output.
        static func inflateAll(_ compressed: ArraySlice<UInt8>, maxBytes: Int) -> [UInt8]? {
            let stream = InflateStream()
            var output: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            let result: [UInt8]? = compressed.withUnsafeBytes { input -> [UInt8]? in
                var input = input
                while true {
                    let step: InflateStream.Step
                    do throws(ImageDecodingError) {
                        step = try chunk.withMutableDecodingBytes { (out) throws(ImageDecodingError) -> InflateStream.Step in
                            try stream.inflate(input: input, output: out)
                        }
                    } catch {
                        return nil
                    }
                    output.append(contentsOf: chunk[..<step.produced])
                    guard output.count <= maxBytes else { return nil }
                    input = UnsafeRawBufferPointer(rebasing: input[step.consumed...])
                    if step.ended { return output }
                    if step.consumed == 0 && step.produced == 0 { return nil }
                }
            }
            return result
        }

        /// eXIf (PNG §11.3.6.1, EXIF 2.3 §4.6.4): the orientation tag (0x0112)
        /// of IFD0 in the TIFF structure, either byte order.
        static func orientation(_ data: [UInt8]) -> Orientation? {
            guard data.count >= 8 else { return nil }
            let little: Bool
            switch (data[0], data[1]) {
            case (0x49, 0x49): little = true
            case (0x4D, 0x4D): little = false
            default: return nil
            }
            func u16(_ o: Int) -> Int? {
                guard o >= 0, o + 2 <= data.count else { return nil }
                return little ? Int(data[o]) | Int(data[o + 1]) << 8 : Int(data[o]) << 8 | Int(data[o + 1])
            }
            func u32(_ o: Int) -> Int? {
                guard let a = u16(o), let b = u16(o + 2) else { return nil }
                return little ? a | b << 16 : a << 16 | b
            }
            guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
            for i in 0..<count {
                let entry = ifd + 2 + i * 12
                guard let tag = u16(entry) else { return nil }
                if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) {
                    return Orientation(rawValue: value)
                }
            }
            return nil
        }
    }
}
