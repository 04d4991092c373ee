import ArgumentParser
import GlimpseCodec

/// `--color srgb|preserve`: what a command does with an embedded ICC profile.
enum ColorArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Convert through the profile to sRGB and drop it (``ColorPolicy/convertToSRGB``).
    case srgb
    /// Keep the pixels as stored and the profile (``ColorPolicy/preserve``).
    case preserve

    var policy: ColorPolicy {
        switch self {
        case .srgb: .convertToSRGB
        case .preserve: .preserve
        }
    }
}
