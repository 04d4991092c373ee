import ArgumentParser
import GlimpseCodec

/// `--color srgb|preserve|PROFILE`: what a command does with an image's colour description.
struct ColorArgument: ExpressibleByArgument, Sendable, Hashable {
    enum Choice: Sendable, Hashable {
        /// Convert through the profile to sRGB and drop it (``ColorPolicy/convertToSRGB``).
        case srgb
        /// Keep the pixels as stored and the profile (``ColorPolicy/preserve``).
        case preserve
        /// Convert to the RGB or grey ICC profile in this file and carry it (``ColorPolicy/convert(to:intent:)``).
        case profile(path: String)
    }

    let choice: Choice

    static let srgb = ColorArgument(.srgb)
    static let preserve = ColorArgument(.preserve)

    init(_ choice: Choice) {
        self.choice = choice
    }

    /// `srgb`, `preserve`, or any other word as the path of an ICC profile (read when the command runs).
    init?(argument: String) {
        switch argument {
        case "srgb": choice = .srgb
        case "preserve": choice = .preserve
        case "": return nil
        default: choice = .profile(path: argument)
        }
    }

    var defaultValueDescription: String {
        switch choice {
        case .srgb: "srgb"
        case .preserve: "preserve"
        case .profile(let path): path
        }
    }

    /// The policy, reading and checking the profile file for ``Choice/profile(path:)``.
    func policy() throws(CommandFailure) -> ColorPolicy {
        switch choice {
        case .srgb:
            return .convertToSRGB
        case .preserve:
            return .preserve
        case .profile(let path):
            let bytes = try ImageFiles.read(path)
            let profile: ICC.Profile
            do {
                profile = try ICC.Profile(parsing: bytes)
            } catch {
                throw CommandFailure("\(path): not a usable ICC profile: \(error)")
            }
            do {
                // Built once here so that a profile that cannot be a destination fails before any work.
                _ = try ColorTransform(source: profile, destination: profile)
            } catch {
                throw CommandFailure("\(path): cannot convert to this profile (RGB and grey profiles only): \(error)")
            }
            return .convert(to: profile)
        }
    }
}
