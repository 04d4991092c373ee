extension AVIF {
    /// One item property of `ipco` (ISO/IEC 23008-12 §6.5, MIAF §7.3, AV1-ISOBMFF §2.3, AVIF §2.3),
    /// parsed; properties of other types are kept by type only, so that an essential one can
    /// be refused.
    public enum Property: Sendable, Hashable {
        /// `ispe`: the image's width and height before any transformation.
        case spatialExtents(width: UInt32, height: UInt32)
        /// `pixi`: bits per channel.
        case pixelInformation(bitsPerChannel: [UInt8])
        /// `av1C`: the AV1 codec configuration.
        case av1Configuration(CodecConfiguration)
        /// `colr` of type `nclx`.
        case colorCodePoints(CodingIndependentCodePoints)
        /// `colr` of type `rICC` or `prof`: an ICC profile.
        case iccProfile([UInt8])
        /// `pasp`: pixel aspect ratio.
        case pixelAspectRatio(horizontal: UInt32, vertical: UInt32)
        /// `clap`: the clean aperture (a crop).
        case cleanAperture(CleanAperture)
        /// `irot`: anti-clockwise rotation by 90° × `quarterTurns`.
        case rotation(quarterTurns: Int)
        /// `imir`: top and bottom exchanged (axis 0) or left and right (axis 1), ISO/IEC 23008-12:2022 §6.5.12.
        case mirror(axis: Int)
        /// `auxC`: the auxiliary image's type URN (alpha: `urn:mpeg:mpegB:cicp:systems:auxiliary:alpha`).
        case auxiliaryType(String)
        /// `a1lx`: the byte sizes of the first layers of a layered image (the last layer takes the rest).
        case layeredImageIndexing(layerSizes: [UInt32])
        /// `a1op`: the AV1 operating point to decode.
        case operatingPoint(Int)
        /// `lsel`: the layer to render (0xFFFF: the decoder's choice).
        case layerSelector(Int)
        /// A property this decoder does not read.
        case other(BoxType)

        /// Parses the property box `header`.
        static func parse(_ bytes: [UInt8], _ header: BoxHeader) throws(ImageDecodingError) -> Property {
            var reader = ByteReader(bytes, header)
            switch header.type {
            case .spatialExtents:
                _ = try reader.fullBoxHeader()
                return .spatialExtents(width: try reader.uint32(), height: try reader.uint32())
            case .pixelInformation:
                _ = try reader.fullBoxHeader()
                let count = Int(try reader.uint8())
                guard count > 0 else { throw .avif(.propertyValue(type: .pixelInformation)) }
                var depths: [UInt8] = []
                for _ in 0..<count { depths.append(try reader.uint8()) }
                return .pixelInformation(bitsPerChannel: depths)
            case .av1Configuration:
                return .av1Configuration(try CodecConfiguration(&reader))
            case .colour:
                let colorType = try reader.fourCC()
                switch colorType {
                case .nclx:
                    let primaries = try reader.uint16(), transfer = try reader.uint16(), matrix = try reader.uint16()
                    let range = try reader.uint8()
                    return .colorCodePoints(CodingIndependentCodePoints(
                        colorPrimaries: primaries, transferCharacteristics: transfer, matrixCoefficients: matrix, isFullRange: range & 0x80 != 0))
                case .restrictedICC, .unrestrictedICC:
                    return .iccProfile(reader.rest())
                default:
                    return .other(BoxType("colr"))
                }
            case .pixelAspectRatio:
                return .pixelAspectRatio(horizontal: try reader.uint32(), vertical: try reader.uint32())
            case .cleanAperture:
                var values: [UInt32] = []
                for _ in 0..<8 { values.append(try reader.uint32()) }
                return .cleanAperture(CleanAperture(values))
            case .rotation:
                return .rotation(quarterTurns: Int(try reader.uint8() & 3))
            case .mirror:
                return .mirror(axis: Int(try reader.uint8() & 1))
            case .auxiliaryType:
                _ = try reader.fullBoxHeader()
                return .auxiliaryType(try reader.cString())
            case .layeredImageIndexing:
                let large = try reader.uint8() & 1 != 0
                var sizes: [UInt32] = []
                for _ in 0..<3 { sizes.append(large ? try reader.uint32() : UInt32(try reader.uint16())) }
                return .layeredImageIndexing(layerSizes: sizes)
            case .operatingPoint:
                return .operatingPoint(Int(try reader.uint8()))
            case .layerSelector:
                return .layerSelector(Int(try reader.uint16()))
            default:
                return .other(header.type)
            }
        }

        /// Whether this decoder knows the property (an unknown essential one makes the item unsupported).
        var isKnown: Bool {
            if case .other = self { return false }
            return true
        }
    }
}
