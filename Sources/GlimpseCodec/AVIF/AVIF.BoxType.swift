extension AVIF {
    /// A four-character code: a box type (ISO/IEC 14496-12 §4.2), an item type, a brand,
    /// a reference type or a colour type.
    public struct BoxType: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt32

        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// From four ASCII characters (longer strings keep their first four).
        public init(_ code: StaticString) {
            var value: UInt32 = 0
            code.withUTF8Buffer { for byte in $0.prefix(4) { value = value << 8 | UInt32(byte) } }
            rawValue = value
        }

        /// The four characters, with bytes outside printable ASCII as `.`.
        public var description: String {
            var text = ""
            for shift in stride(from: 24, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
                text.append(byte >= 0x20 && byte < 0x7F ? Character(Unicode.Scalar(byte)) : ".")
            }
            return text
        }

        static let fileType = BoxType("ftyp"), meta = BoxType("meta"), movie = BoxType("moov"), mediaData = BoxType("mdat")
        static let handler = BoxType("hdlr"), primaryItem = BoxType("pitm"), itemInfo = BoxType("iinf")
        static let itemInfoEntry = BoxType("infe"), itemLocation = BoxType("iloc"), itemData = BoxType("idat")
        static let itemReference = BoxType("iref"), itemProperties = BoxType("iprp"), propertyContainer = BoxType("ipco")
        static let propertyAssociation = BoxType("ipma")
        static let spatialExtents = BoxType("ispe"), pixelInformation = BoxType("pixi"), av1Configuration = BoxType("av1C")
        static let colour = BoxType("colr"), pixelAspectRatio = BoxType("pasp"), cleanAperture = BoxType("clap")
        static let rotation = BoxType("irot"), mirror = BoxType("imir"), auxiliaryType = BoxType("auxC")
        static let layeredImageIndexing = BoxType("a1lx"), operatingPoint = BoxType("a1op"), layerSelector = BoxType("lsel")
        static let track = BoxType("trak"), media = BoxType("mdia"), mediaInformation = BoxType("minf")
        static let sampleTable = BoxType("stbl"), sampleSizes = BoxType("stsz"), compactSampleSizes = BoxType("stz2")

        // Brands (ftyp), item types (infe), handler, colour and reference types.
        static let avif = BoxType("avif"), avis = BoxType("avis"), mif1 = BoxType("mif1"), msf1 = BoxType("msf1")
        static let miaf = BoxType("miaf")
        static let av01 = BoxType("av01"), grid = BoxType("grid"), exif = BoxType("Exif"), mime = BoxType("mime")
        static let picture = BoxType("pict"), video = BoxType("vide"), auxiliaryVideo = BoxType("auxv")
        static let nclx = BoxType("nclx"), restrictedICC = BoxType("rICC"), unrestrictedICC = BoxType("prof")
        static let auxiliary = BoxType("auxl"), derivedImage = BoxType("dimg"), thumbnail = BoxType("thmb")
        static let contentDescription = BoxType("cdsc"), premultiplied = BoxType("prem")
    }
}
