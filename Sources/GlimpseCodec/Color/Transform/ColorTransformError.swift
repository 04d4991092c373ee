/// Why a ``ColorTransform`` cannot be built from a profile that parsed. Permanent:
/// a decoder keeps the pixels as stored and reports a warning.
public enum ColorTransformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The profile's device colour space is not RGB, grey or CMYK.
    case unsupportedColorSpace(ICC.Signature)
    /// The profile connection space is neither `XYZ ` nor `Lab ` (§7.2.7).
    case unsupportedConnectionSpace(ICC.Signature)
    /// Neither an `A2Bx` LUT nor the matrix/TRC (or `kTRC`) tags are present (§8.3).
    case missingTags
    /// The colorant matrix cannot be inverted (a destination profile with degenerate colorants).
    case singularMatrix

    public var description: String {
        switch self {
        case .unsupportedColorSpace(let space): "unsupported colour space \(space)"
        case .unsupportedConnectionSpace(let space): "unsupported connection space \(space)"
        case .missingTags: "profile has no A2B LUT and no matrix/TRC tags"
        case .singularMatrix: "colorant matrix is singular"
        }
    }
}
