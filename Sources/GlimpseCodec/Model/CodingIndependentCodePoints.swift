/// A colour description by ITU-T H.273 code points, as AVIF's `colr` box of type `nclx`
/// (ISO/IEC 23008-12 §6.5.5) and the AV1 sequence header's colour config carry it:
/// primaries 1 and transfer 13 with matrix 6 is sRGB as JPEG stores it, 9/16/9 BT.2100 PQ.
public struct CodingIndependentCodePoints: Sendable, Hashable, CustomStringConvertible {
    /// `colour_primaries` (H.273 Table 2): 1 BT.709, 9 BT.2020, 12 Display P3, 2 unspecified.
    public var colorPrimaries: UInt16
    /// `transfer_characteristics` (Table 3): 13 sRGB, 16 PQ, 18 HLG, 2 unspecified.
    public var transferCharacteristics: UInt16
    /// `matrix_coefficients` (Table 4): 0 identity (RGB), 1 BT.709, 6 BT.601, 9 BT.2020 NCL.
    public var matrixCoefficients: UInt16
    /// Full (0…2^n − 1) rather than limited ("video") range.
    public var isFullRange: Bool

    public init(colorPrimaries: UInt16, transferCharacteristics: UInt16, matrixCoefficients: UInt16, isFullRange: Bool) {
        self.colorPrimaries = colorPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.isFullRange = isFullRange
    }

    /// `primaries-transfer-matrix` and the range, as libavif's `avifdec --info` and file names write them.
    public var description: String {
        "\(colorPrimaries)-\(transferCharacteristics)-\(matrixCoefficients) \(isFullRange ? "full" : "limited")"
    }
}
