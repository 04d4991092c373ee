import GlimpseCodec
import FuzzTargets

/// Differential fuzz targets: Glimpse's strict decoders against the C
/// libraries on the same input. Both must reject it, or both accept it with
/// identical pixels; anything else is a finding (the harness aborts and
/// libFuzzer keeps the input).
///
/// Inputs outside what a comparison covers (our limits exceeded, no colour
/// table, an animation) get no verdict and pass.
public enum DiffTarget: String, CaseIterable, Sendable {
    /// PNG against libpng, both strict.
    case pngDiff = "png-diff"
    /// A GIF's first composed frame against giflib's, both strict.
    case gifDiff = "gif-diff"

    /// What disagrees on `bytes`, or `nil` when the decoders agree.
    public func run(_ bytes: [UInt8]) -> String? {
        switch self {
        case .pngDiff: PNGDiff.compare(bytes)
        case .gifDiff: GIFDiff.compare(bytes)
        }
    }
}
