extension AVIF {
    /// The image a reader shows (ISO/IEC 23008-12 §6.1, AVIF §4): the primary item, its
    /// alpha auxiliary image (`auxl` with `auxC` alpha, premultiplied when the colour
    /// item has a `prem` reference to it), its transformations in the order MIAF §7.3.6.7
    /// applies them (`clap`, then `irot`, then `imir`), and the `Exif` and XMP items
    /// that describe it (`cdsc`).
    struct PrimaryImage: Sendable {
        static let alphaURNs = ["urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", "urn:mpeg:hevc:2015:auxid:1"]

        let color: ImageItem
        let alpha: ImageItem?
        let isAlphaPremultiplied: Bool
        /// The `clap` crop of the coded image, in its pixels.
        let crop: (x: Int, y: Int, width: Int, height: Int)?
        /// `irot`: anti-clockwise quarter turns after the crop.
        let quarterTurns: Int
        /// `imir` after the rotation: 0 exchanges top and bottom, 1 left and right.
        let mirrorAxis: Int?
        /// The size after `clap` and `irot`.
        let displayWidth: Int
        let displayHeight: Int
        let codePoints: CodingIndependentCodePoints?
        let iccProfile: [UInt8]?
        let exifItem: UInt32?
        let xmpItem: UInt32?

        /// `nil` while a grid payload needed to know the image has not arrived.
        init?(meta: MetaBox, file: [UInt8], limits: DecodingLimits, containerLimits: ContainerLimits) throws(ImageDecodingError) {
            let id = meta.primaryItemID
            guard let color = try ImageItem(id, meta: meta, file: file, limits: limits, containerLimits: containerLimits) else {
                return nil
            }
            self.color = color
            var alphaID: UInt32?
            for candidate in meta.items(referring: .auxiliary, to: id) {
                let isAlpha = meta.properties(of: candidate).contains { entry in
                    if case .auxiliaryType(let urn) = entry.property { return Self.alphaURNs.contains(urn) }
                    return false
                }
                guard isAlpha else { continue }
                guard candidate != id else { throw .avif(.referenceCycle(id)) }
                alphaID = candidate
                break
            }
            if let alphaID {
                guard let alpha = try ImageItem(alphaID, meta: meta, file: file, limits: limits, containerLimits: containerLimits) else {
                    return nil
                }
                self.alpha = alpha
            } else {
                alpha = nil
            }
            isAlphaPremultiplied = alphaID.map { meta.references(.premultiplied, from: id).contains($0) } ?? false

            var codePoints: CodingIndependentCodePoints?, icc: [UInt8]?
            var crop: CleanAperture?, quarterTurns = 0, mirrorAxis: Int?
            for property in color.properties {
                switch property {
                case .colorCodePoints(let points) where codePoints == nil: codePoints = points
                case .iccProfile(let profile) where icc == nil: icc = profile
                case .cleanAperture(let aperture) where crop == nil: crop = aperture
                case .rotation(let turns): quarterTurns = turns
                case .mirror(let axis): mirrorAxis = axis
                default: break
                }
            }
            self.codePoints = codePoints
            iccProfile = icc
            var width = color.width, height = color.height
            if let crop {
                let rectangle = try crop.cropRectangle(width: width, height: height)
                (width, height) = (rectangle.width, rectangle.height)
                self.crop = rectangle
            } else {
                self.crop = nil
            }
            self.quarterTurns = quarterTurns
            self.mirrorAxis = mirrorAxis
            if quarterTurns % 2 == 1 { (width, height) = (height, width) }
            (displayWidth, displayHeight) = (width, height)

            var exif: UInt32?, xmp: UInt32?
            for described in meta.items(referring: .contentDescription, to: id) {
                guard let item = meta.items[described] else { continue }
                if item.type == .exif && exif == nil { exif = described }
                if item.type == .mime && item.contentType == "application/rdf+xml" && xmp == nil { xmp = described }
            }
            exifItem = exif
            xmpItem = xmp
        }

        /// How many bytes of the file resolving the image needs: the `grid` payloads of the
        /// primary item and of its auxiliary images, wherever they are stored.
        static func resolutionNeed(meta: MetaBox, limits: DecodingLimits) throws(ImageDecodingError) -> Int {
            var need = 0
            for id in [meta.primaryItemID] + meta.items(referring: .auxiliary, to: meta.primaryItemID)
            where meta.items[id]?.type == .grid {
                need = max(need, try ImageItem.dataEnd(id, meta: meta, limits: limits))
            }
            return need
        }

        /// Every item whose data the image needs: the coded colour and alpha items.
        var codedItems: [UInt32] { color.codedItems + (alpha?.codedItems ?? []) }

        /// The `Exif` item's payload from its TIFF header on: a 32-bit offset to the header
        /// precedes it (ISO/IEC 23008-12 Annex A.2.1).
        static func exifPayload(_ data: [UInt8]) -> [UInt8]? {
            guard data.count >= 4 else { return nil }
            let offset = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
            guard offset <= data.count - 4 else { return nil }
            return Array(data[(4 + offset)...])
        }
    }
}
