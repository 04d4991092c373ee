extension ICC {
    /// An ICC profile (ICC.1:2022 §7; version 2 profiles are read the same way):
    /// the header, the tag table, and the tags a transform to sRGB needs, parsed
    /// and checked up front so that a profile that parses can always be used.
    ///
    /// ```swift
    /// let profile = try ICC.Profile(parsing: metadata.iccProfile ?? [])
    /// let transform = try ColorTransform(source: profile)
    /// ```
    public struct Profile: Sendable, Hashable {
        /// Major and minor version (§7.2.4), e.g. 4.4 or 2.1.
        public let version: (major: Int, minor: Int)
        /// Profile/device class (§7.2.5): `mntr`, `scnr`, `prtr`, `spac`, …
        public let deviceClass: Signature
        /// Colour space of the device side (§7.2.6): `RGB `, `GRAY`, `CMYK`, …
        public let colorSpace: Signature
        /// The profile connection space (§7.2.7): `XYZ ` or `Lab `.
        public let connectionSpace: Signature
        /// Every tag in the tag table (§7.3), in table order.
        public let tagSignatures: [Signature]
        /// `desc` (text of a version 2 `desc` type, or the first record of `mluc`), when readable.
        public let profileDescription: String?
        /// `wtpt` (§9.2.36).
        public let mediaWhitePoint: XYZ?
        /// `chad` (§9.2.15): the adaptation from the actual illuminant to D50.
        public let chromaticAdaptation: Matrix3?
        /// `rXYZ`, `gXYZ`, `bXYZ` (§9.2.39, §9.2.30, §9.2.6), D50-relative.
        public let colorants: (red: XYZ, green: XYZ, blue: XYZ)?
        /// `rTRC`, `gTRC`, `bTRC` (§9.2.40, §9.2.31, §9.2.7).
        public let transferCurves: (red: Curve, green: Curve, blue: Curve)?
        /// `kTRC` (§9.2.20).
        public let grayCurve: Curve?
        /// `A2B0`, `A2B1`, `A2B2` by intent number (§9.2.1–9.2.3).
        public let deviceToPCS: [Int: LUT]
        /// `B2A0`, `B2A1`, `B2A2` by intent number (§9.2.4–9.2.6).
        public let pcsToDevice: [Int: LUT]
        /// The bytes the profile was parsed from, what an encoder embeds (empty for a
        /// profile made in memory from other colour descriptions).
        public let bytes: [UInt8]

        /// Channels of the device colour space, or `nil` for one Glimpse cannot convert.
        public var deviceChannels: Int? { Profile.channels(of: colorSpace) }

        /// Whether ``colorants`` and ``transferCurves`` are present (a matrix/TRC RGB profile, §8.3.3).
        public var isMatrixShaper: Bool { colorants != nil && transferCurves != nil }

        static func channels(of space: Signature) -> Int? {
            switch space {
            case "GRAY": 1
            case "RGB ", "Lab ", "XYZ ": 3
            case "CMYK": 4
            default: nil
            }
        }

        /// Parses `bytes`, throwing a ``ProfileError`` for anything malformed.
        /// Tags Glimpse does not use are listed in ``tagSignatures`` but not read.
        public init(parsing bytes: [UInt8], limits: Limits = Limits()) throws(ProfileError) {
            guard bytes.count <= limits.maximumProfileBytes else {
                throw .tooLarge(size: bytes.count, limit: limits.maximumProfileBytes)
            }
            guard bytes.count >= 132 else { throw .truncated(size: bytes.count) }
            let header = ByteReader(bytes: bytes, range: 0..<bytes.count, tag: "head")
            let declared = Int(try header.uint32(0))
            guard declared <= bytes.count else { throw .declaredSize(declared: declared, actual: bytes.count) }
            guard try header.signature(36) == "acsp" else { throw .signature }
            let major = Int(try header.uint8(8))
            guard major == 2 || major == 4 else { throw .version(major: major) }
            version = (major, Int(try header.uint8(9) >> 4))
            deviceClass = try header.signature(12)
            colorSpace = try header.signature(16)
            connectionSpace = try header.signature(20)

            // The tag table (§7.3): a count, then 12-byte entries of signature, offset, size.
            let count = Int(try header.uint32(128))
            guard count <= limits.maximumTagCount else { throw .tagCount(count) }
            try header.require(132, count * 12)
            let size = declared > 0 ? declared : bytes.count
            var readers = [Signature: ByteReader]()
            var signatures = [Signature]()
            for i in 0..<count {
                let entry = 132 + 12 * i
                let tag = try header.signature(entry)
                let offset = Int(try header.uint32(entry + 4)), length = Int(try header.uint32(entry + 8))
                guard offset <= size, length <= size - offset, length >= 8 else { throw .tagBounds(tag) }
                signatures.append(tag)
                if readers[tag] == nil { readers[tag] = ByteReader(bytes: bytes, range: offset..<(offset + length), tag: tag) }
            }
            tagSignatures = signatures

            profileDescription = readers["desc"].flatMap { Profile.text($0) }
            mediaWhitePoint = try readers["wtpt"].map { reader throws(ProfileError) in try Profile.xyz(reader) }
            chromaticAdaptation = try readers["chad"].map { reader throws(ProfileError) in try Profile.matrix(reader) }
            if let r = readers["rXYZ"], let g = readers["gXYZ"], let b = readers["bXYZ"] {
                colorants = (try Profile.xyz(r), try Profile.xyz(g), try Profile.xyz(b))
            } else {
                colorants = nil
            }
            if let r = readers["rTRC"], let g = readers["gTRC"], let b = readers["bTRC"] {
                transferCurves = (try Profile.curve(r, limits), try Profile.curve(g, limits), try Profile.curve(b, limits))
            } else {
                transferCurves = nil
            }
            grayCurve = try readers["kTRC"].map { reader throws(ProfileError) in try Profile.curve(reader, limits) }

            let device = Profile.channels(of: colorSpace), pcs = Profile.channels(of: connectionSpace)
            var forward = [Int: LUT](), backward = [Int: LUT]()
            for intent in 0..<3 {
                let a2b = Signature(stringLiteral: "A2B\(intent)"), b2a = Signature(stringLiteral: "B2A\(intent)")
                if let reader = readers[a2b], let device, let pcs {
                    forward[intent] = try LUT.parse(reader, inputs: device, outputs: pcs, limits: limits)
                }
                if let reader = readers[b2a], let device, let pcs {
                    backward[intent] = try LUT.parse(reader, inputs: pcs, outputs: device, limits: limits)
                }
            }
            deviceToPCS = forward
            pcsToDevice = backward
            self.bytes = bytes
        }

        public static func == (a: Profile, b: Profile) -> Bool {
            a.version == b.version && a.deviceClass == b.deviceClass && a.colorSpace == b.colorSpace
                && a.connectionSpace == b.connectionSpace && a.tagSignatures == b.tagSignatures
                && a.profileDescription == b.profileDescription && a.mediaWhitePoint == b.mediaWhitePoint
                && a.chromaticAdaptation == b.chromaticAdaptation
                && a.colorants.map { [$0.red, $0.green, $0.blue] } == b.colorants.map { [$0.red, $0.green, $0.blue] }
                && a.transferCurves.map { [$0.red, $0.green, $0.blue] } == b.transferCurves.map { [$0.red, $0.green, $0.blue] }
                && a.grayCurve == b.grayCurve && a.deviceToPCS == b.deviceToPCS && a.pcsToDevice == b.pcsToDevice
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(tagSignatures)
            hasher.combine(colorSpace)
            hasher.combine(profileDescription)
        }
    }
}
