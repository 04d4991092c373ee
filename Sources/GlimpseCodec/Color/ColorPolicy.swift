/// What a decoder does with an image's ICC profile (``DecodingOptions/colorPolicy``).
public enum ColorPolicy: Sendable, Hashable {
    /// Pixels as stored, profile kept in ``ImageMetadata/iccProfile`` (the default).
    case preserve
    /// Pixels converted to sRGB through the embedded profile as LittleCMS does
    /// (perceptual intent) and the profile dropped, so that the image looks the
    /// same in every viewer without one. An sRGB profile costs no conversion. A
    /// profile that cannot be read or used leaves the pixels as stored, keeps the
    /// profile and adds a ``DecodingWarning``.
    case convertToSRGB

    /// The CMYK → sRGB transform a JPEG decoder should apply, when this policy
    /// converts and `profile` is a usable CMYK profile.
    func cmykTransform(for profile: [UInt8]?) -> ColorTransform? {
        guard self == .convertToSRGB, let profile,
              let parsed = try? ICC.Profile(parsing: profile), parsed.colorSpace == "CMYK",
              let transform = try? ColorTransform(source: parsed), transform.input == .cmyk else { return nil }
        return transform
    }

    /// Converts an RGB or grey image with an embedded profile to sRGB in place and
    /// drops the profile. CMYK profiles are the JPEG decoder's to apply; a grey
    /// profile on pixels that are not grey (a mismatch browsers ignore) is ignored too.
    public func apply(to image: inout Image) {
        guard self == .convertToSRGB, let bytes = image.metadata.iccProfile else { return }
        let transform: ColorTransform
        do {
            transform = try ColorTransform(source: try ICC.Profile(parsing: bytes))
        } catch {
            image.warnings.append(DecodingWarning(.other("ICC profile ignored: \(error)")))
            return
        }
        guard transform.input != .cmyk else { return }
        if transform.input == .gray, !image.frames.allSatisfy({ ColorPolicy.isGray($0.pixels) }) { return }
        for index in image.frames.indices {
            transform.apply(to: &image.frames[index].pixels)
        }
        image.metadata.iccProfile = nil
    }

    private static func isGray(_ pixels: PixelBuffer) -> Bool {
        let step = pixels.format.bytesPerSample
        return pixels.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i + 4 * step <= bytes.count {
                for b in 0..<step where bytes[i + b] != bytes[i + step + b] || bytes[i + b] != bytes[i + 2 * step + b] {
                    return false
                }
                i += 4 * step
            }
            return true
        }
    }
}
