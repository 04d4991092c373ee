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

    /// Converts an RGB or grey image to sRGB in place through its colour description — a PNG
    /// `cICP`, an embedded ICC profile, or PNG `gAMA` with `cHRM`, in that order
    /// (``ColorSource``) — and drops every description, which no longer fits the pixels.
    /// CMYK profiles are the JPEG decoder's to apply; a grey profile on pixels that are not
    /// grey (a mismatch browsers ignore) is ignored too. A description that cannot be used
    /// leaves the image as it is, with a warning.
    public func apply(to image: inout Image) {
        guard self == .convertToSRGB else { return }
        let profile: ICC.Profile
        switch ColorSource(image.metadata) {
        case .untagged, .sRGB:
            return
        case .unusable(let reason):
            image.warnings.append(DecodingWarning(.other("colour description not converted: \(reason)")))
            return
        case .described(let described):
            profile = described
        case .iccProfile(let bytes):
            do {
                profile = try ICC.Profile(parsing: bytes)
            } catch {
                image.warnings.append(DecodingWarning(.other("ICC profile ignored: \(error)")))
                return
            }
        }
        let transform: ColorTransform
        do {
            transform = try ColorTransform(source: profile)
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
        image.metadata.cicp = nil
        image.metadata.gamma = nil
        image.metadata.chromaticities = nil
        image.metadata.sRGBIntent = nil
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
