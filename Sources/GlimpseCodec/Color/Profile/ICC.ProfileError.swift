extension ICC {
    /// Why a profile could not be read. Every case is permanent: the same bytes
    /// always fail the same way, and a decoder that meets one keeps the pixels as
    /// stored and reports a warning.
    public enum ProfileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Fewer bytes than the 128-byte header and the tag count need (§7.2, §7.3).
        case truncated(size: Int)
        /// More bytes than ``ICC/Limits/maximumProfileBytes``.
        case tooLarge(size: Int, limit: Int)
        /// The header's size field (§7.2.2) is larger than the bytes given.
        case declaredSize(declared: Int, actual: Int)
        /// Bytes 36…39 are not `acsp` (§7.2.9).
        case signature
        /// A major version other than 2 or 4 (§7.2.4).
        case version(major: Int)
        /// More tags than ``ICC/Limits/maximumTagCount``.
        case tagCount(Int)
        /// A tag's offset and size reach outside the profile (§7.3.3).
        case tagBounds(Signature)
        /// A tag shorter than its type requires.
        case tagTruncated(Signature)
        /// A tag whose type is not one the tag allows (e.g. `rTRC` that is not `curv` or `para`).
        case tagType(tag: Signature, type: Signature)
        /// A `para` function type above 4 (§10.18).
        case parametricFunction(tag: Signature, function: Int)
        /// A LUT's channel counts do not fit the profile's colour spaces or ICC's limits.
        case channels(tag: Signature, inputs: Int, outputs: Int)
        /// A curve table with fewer than two entries where a table is required, or more than the limit.
        case curveEntries(tag: Signature, count: Int)
        /// A CLUT grid dimension below 2, or a grid with more samples than ``ICC/Limits/maximumGridSamples``.
        case grid(tag: Signature, points: [Int])
        /// A CLUT precision byte other than 1 or 2 (§10.12.3).
        case gridPrecision(tag: Signature, precision: Int)

        public var description: String {
            switch self {
            case .truncated(let size): "profile truncated at \(size) bytes"
            case .tooLarge(let size, let limit): "profile of \(size) bytes exceeds the limit of \(limit)"
            case .declaredSize(let declared, let actual): "header declares \(declared) bytes, \(actual) given"
            case .signature: "no 'acsp' signature"
            case .version(let major): "unsupported profile version \(major)"
            case .tagCount(let count): "\(count) tags exceed the limit"
            case .tagBounds(let tag): "tag \(tag) lies outside the profile"
            case .tagTruncated(let tag): "tag \(tag) is truncated"
            case .tagType(let tag, let type): "tag \(tag) has unexpected type \(type)"
            case .parametricFunction(let tag, let function): "tag \(tag): parametric function \(function)"
            case .channels(let tag, let inputs, let outputs): "tag \(tag): \(inputs) inputs, \(outputs) outputs"
            case .curveEntries(let tag, let count): "tag \(tag): curve of \(count) entries"
            case .grid(let tag, let points): "tag \(tag): CLUT grid \(points)"
            case .gridPrecision(let tag, let precision): "tag \(tag): CLUT precision \(precision)"
            }
        }
    }

    /// Bounds checked before anything a profile declares is allocated.
    public struct Limits: Sendable, Hashable {
        /// Largest profile accepted (default 16 MiB; the largest profiles in the wild are a few MiB).
        public var maximumProfileBytes: Int = 16 << 20
        /// Most tags in the tag table (default 256; real profiles have under 30).
        public var maximumTagCount: Int = 256
        /// Most samples in one CLUT, grid points to the power of the inputs times the
        /// outputs (default 2^22: a 33^4 CMYK grid with 3 outputs is 3.6 million).
        public var maximumGridSamples: Int = 1 << 22
        /// Most entries in one curve table (default 65 536, as 16-bit curves need no more).
        public var maximumCurveEntries: Int = 1 << 16

        public init() {}
    }
}
