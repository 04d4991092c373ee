/// ICC colour profiles (ICC.1:2022, also read: ICC.1:2001-04 for version 2) and
/// the transforms built from them.
///
/// `ICC` holds the profile model (``ICC/Profile`` and its tag types, parsed in
/// `Color/Profile/`); ``ColorTransform`` (in `Color/Transform/`) converts pixels
/// described by a profile to sRGB the way LittleCMS 2 does.
public enum ICC {}

extension ICC {
    /// A four-byte signature (ICC.1:2022 §4.7 `uInt32Number` used as four ASCII
    /// characters): tag names, tag types, colour spaces, profile classes.
    public struct Signature: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The big-endian value of the four bytes.
        public let rawValue: UInt32

        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A signature from four ASCII characters (shorter strings are padded with spaces).
        public init(stringLiteral text: String) {
            var value: UInt32 = 0
            var bytes = Array(text.utf8.prefix(4))
            while bytes.count < 4 { bytes.append(0x20) }
            for byte in bytes { value = value << 8 | UInt32(byte) }
            rawValue = value
        }

        public var description: String {
            let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> UInt32($0)) }
            if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                return String(decoding: bytes, as: UTF8.self)
            }
            return "0x" + String(rawValue, radix: 16)
        }
    }

    /// Which of a profile's renderings to use (ICC.1:2022 §7.2.15; absolute
    /// colorimetric is not offered: thumbnails for screens never want paper white).
    public enum RenderingIntent: Int, Sendable, Hashable, CaseIterable {
        /// `A2B0`: the profile maker's pleasing rendering. With a version 4 sRGB
        /// destination LittleCMS also compensates the black point, and so does Glimpse.
        case perceptual = 0
        /// `A2B1`: colours match under adaptation to the media white; no black point compensation.
        case relativeColorimetric = 1
        /// `A2B2`: vivid rendering for business graphics; black point compensated like perceptual.
        case saturation = 2
    }
}
