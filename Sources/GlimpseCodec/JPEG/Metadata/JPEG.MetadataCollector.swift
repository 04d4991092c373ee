extension JPEG {
    /// Gathers what the APPn segments say: JFIF density (APP0, JFIF 1.02 §A),
    /// EXIF orientation (APP1, EXIF 2.3 §4.5.4 / TIFF 6.0 §2), the ICC profile
    /// (APP2, ICC.1 annex B.4: chunks with a sequence number and a count) and
    /// the Adobe colour transform (APP14, Adobe technical note 5116).
    /// Malformed metadata is ignored, never an error: the pixels are still good.
    struct MetadataCollector: Sendable {
        var sawJFIF = false
        var adobeTransform: UInt8?
        var density: PixelDensity?
        var orientation: Orientation?
        private var iccChunks: [(sequence: UInt8, count: UInt8, data: ArraySlice<UInt8>)] = []

        mutating func collect(marker: UInt8, body: ArraySlice<UInt8>) {
            switch marker {
            case Marker.app0: parseJFIF(body)
            case Marker.app1: parseEXIF(body)
            case Marker.app2: parseICC(body)
            case Marker.app14: parseAdobe(body)
            default: break
            }
        }

        var metadata: ImageMetadata {
            var metadata = ImageMetadata()
            if let orientation { metadata.orientation = orientation }
            metadata.density = density
            metadata.iccProfile = iccProfile
            return metadata
        }

        private static func hasPrefix(_ body: ArraySlice<UInt8>, _ prefix: [UInt8]) -> Bool {
            body.count >= prefix.count && body.prefix(prefix.count).elementsEqual(prefix)
        }

        private mutating func parseJFIF(_ body: ArraySlice<UInt8>) {
            // libjpeg only honours a JFIF header of at least 14 bytes.
            guard body.count >= 14, Self.hasPrefix(body, Array("JFIF\0".utf8)) else { return }
            sawJFIF = true
            let b = body.startIndex
            let x = Int(body[b + 8]) << 8 | Int(body[b + 9])
            let y = Int(body[b + 10]) << 8 | Int(body[b + 11])
            let unit: PixelDensity.Unit
            switch body[b + 7] {
            case 1: unit = .perInch
            case 2: unit = .perCentimeter
            default: unit = .aspectRatio
            }
            if x > 0 && y > 0 { density = PixelDensity(horizontal: x, vertical: y, unit: unit) }
        }

        private mutating func parseAdobe(_ body: ArraySlice<UInt8>) {
            guard body.count >= 12, Self.hasPrefix(body, Array("Adobe".utf8)) else { return }
            adobeTransform = body[body.startIndex + 11]
        }

        private mutating func parseICC(_ body: ArraySlice<UInt8>) {
            let signature = Array("ICC_PROFILE\0".utf8)
            guard body.count >= 14, Self.hasPrefix(body, signature) else { return }
            let b = body.startIndex
            iccChunks.append((body[b + 12], body[b + 13], body[(b + 14)...]))
        }

        /// The profile, when its chunks are consistent: one count, each sequence
        /// number 1…count exactly once (what libjpeg-turbo's `jpeg_read_icc_profile` demands).
        var iccProfile: [UInt8]? {
            guard let count = iccChunks.first?.count, count > 0, iccChunks.count == Int(count),
                  iccChunks.allSatisfy({ $0.count == count }) else { return nil }
            var ordered = [ArraySlice<UInt8>?](repeating: nil, count: Int(count))
            for chunk in iccChunks {
                guard chunk.sequence >= 1, chunk.sequence <= count, ordered[Int(chunk.sequence) - 1] == nil else { return nil }
                ordered[Int(chunk.sequence) - 1] = chunk.data
            }
            var profile: [UInt8] = []
            for part in ordered {
                guard let part else { return nil }
                profile.append(contentsOf: part)
            }
            return profile.isEmpty ? nil : profile
        }

        private mutating func parseEXIF(_ body: ArraySlice<UInt8>) {
            guard orientation == nil, Self.hasPrefix(body, Array("Exif\0\0".utf8)) else { return }
            let tiff = Array(body.dropFirst(6))
            guard tiff.count >= 8 else { return }
            let little: Bool
            switch (tiff[0], tiff[1]) {
            case (0x49, 0x49): little = true
            case (0x4D, 0x4D): little = false
            default: return
            }
            func u16(_ at: Int) -> Int? {
                guard at >= 0, at + 2 <= tiff.count else { return nil }
                return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
            }
            func u32(_ at: Int) -> Int? {
                guard let a = u16(at), let b = u16(at + 2) else { return nil }
                return little ? a | b << 16 : a << 16 | b
            }
            guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return }
            for i in 0..<entries {
                let entry = ifd + 2 + 12 * i
                guard let tag = u16(entry) else { return }
                if tag == 0x0112 {
                    // SHORT, count 1: the value sits in the first two bytes of the value field.
                    guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return }
                    if let parsed = Orientation(rawValue: value) { orientation = parsed }
                    return
                }
            }
        }
    }
}
