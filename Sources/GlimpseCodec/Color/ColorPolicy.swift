/// What a decoder or an encoder does with an image's colour description: its ICC profile
/// or PNG colour chunks (``DecodingOptions/colorPolicy``, ``EncodingOptions/colorPolicy``).
public enum ColorPolicy: Sendable, Hashable {
    /// Pixels as stored, profile kept in ``ImageMetadata/iccProfile`` (the default).
    case preserve
    /// Pixels converted to sRGB through the embedded profile as LittleCMS does
    /// (perceptual intent) and the profile dropped, so that the image looks the
    /// same in every viewer without one. An sRGB profile costs no conversion. A
    /// profile that cannot be read or used leaves the pixels as stored, keeps the
    /// profile and adds a ``DecodingWarning``.
    case convertToSRGB
    /// Pixels converted through the image's colour description (sRGB when it has none)
    /// to `profile`, an RGB or grey ICC profile, as LittleCMS links two profiles
    /// (ICC.1:2022 §8.3 and Annex F.3: the destination's `B2Ax` LUT, else its matrix/TRC
    /// or `kTRC` inverted), and `profile` carried in ``ImageMetadata/iccProfile`` in
    /// place of every other description. Perceptual by default, relative colorimetric on
    /// request. A `profile` that is sRGB by its colorants and curves behaves as
    /// ``convertToSRGB`` (pixels in sRGB, no profile); an image already in `profile`
    /// costs nothing; a grey `profile` turns RGB pixels grey (R = G = B). A description
    /// or profile that cannot be used leaves the image as it is, with a warning.
    case convert(to: ICC.Profile, intent: ICC.RenderingIntent = .perceptual)

    /// Where a converting policy leads: the destination (`nil` for sRGB) and the intent.
    private var target: (profile: ICC.Profile?, intent: ICC.RenderingIntent)? {
        switch self {
        case .preserve:
            return nil
        case .convertToSRGB:
            return (nil, .perceptual)
        case .convert(let profile, let intent):
            return (ColorTransform.SRGB.matches(profile) ? nil : profile, intent)
        }
    }

    /// Whether pixels may change (every policy but ``preserve``).
    var converts: Bool { target != nil }

    /// The profile a converted image carries: the destination's bytes, `nil` for sRGB.
    var convertedProfile: [UInt8]? { target?.profile?.bytes }

    /// The CMYK transform a JPEG decoder should apply, when this policy converts and
    /// `profile` is a usable CMYK profile (to sRGB, or to the policy's destination).
    func cmykTransform(for profile: [UInt8]?) -> ColorTransform? {
        guard let target, let profile,
              let parsed = try? ICC.Profile(parsing: profile), parsed.colorSpace == "CMYK",
              let transform = try? ColorPolicy.transform(parsed, target), transform.input == .cmyk else { return nil }
        return transform
    }

    private static func transform(_ source: ICC.Profile, _ target: (profile: ICC.Profile?, intent: ICC.RenderingIntent))
        throws(ColorTransformError) -> ColorTransform {
        if let destination = target.profile {
            return try ColorTransform(source: source, destination: destination, intent: target.intent)
        }
        return try ColorTransform(source: source, intent: target.intent)
    }

    /// Converts an RGB or grey image in place through its colour description — a PNG
    /// `cICP`, an embedded ICC profile, or PNG `gAMA` with `cHRM`, in that order
    /// (``ColorSource``) — to sRGB or the policy's profile, and replaces every description
    /// with the destination's (none for sRGB). CMYK profiles are the JPEG decoder's to
    /// apply; a grey profile on pixels that are not grey (a mismatch browsers ignore) is
    /// ignored too. A description that cannot be used leaves the image as it is, with a warning.
    public func apply(to image: inout Image) {
        guard let target else { return }
        let source: ICC.Profile
        switch ColorSource(image.metadata) {
        case .untagged, .sRGB:
            guard target.profile != nil else { return }
            source = ColorTransform.SRGB.profile
        case .unusable(let reason):
            image.warnings.append(DecodingWarning(.other("colour description not converted: \(reason)")))
            return
        case .described(let described):
            source = described
        case .iccProfile(let bytes):
            // Already in the destination profile: nothing to do.
            if let destination = target.profile, bytes == destination.bytes { return }
            do {
                source = try ICC.Profile(parsing: bytes)
            } catch {
                image.warnings.append(DecodingWarning(.other("ICC profile ignored: \(error)")))
                return
            }
        }
        let transform: ColorTransform
        do {
            transform = try ColorPolicy.transform(source, target)
        } catch {
            image.warnings.append(DecodingWarning(.other("ICC profile ignored: \(error)")))
            return
        }
        guard transform.input != .cmyk else { return }
        if transform.input == .gray, !image.frames.allSatisfy({ ColorPolicy.isGray($0.pixels) }) { return }
        for index in image.frames.indices {
            transform.apply(to: &image.frames[index].pixels)
        }
        image.metadata.iccProfile = target.profile.flatMap { $0.bytes.isEmpty ? nil : $0.bytes }
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
