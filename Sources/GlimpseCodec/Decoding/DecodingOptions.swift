/// What the caller wants from a decoder.
public struct DecodingOptions: Sendable, Hashable {
    /// How samples deeper than 8 bits are delivered.
    public enum SampleDepth: Sendable, Hashable {
        /// Always ``PixelFormat/rgba8`` (16-bit samples keep their high byte).
        case eightBit
        /// ``PixelFormat/rgba16`` for sources deeper than 8 bits, RGBA8 otherwise.
        case preserve
    }

    /// What a decoder does with damaged input.
    public enum Mode: Sendable, Hashable {
        /// Recover as the format's reference library and browsers do
        /// (libjpeg-turbo, libpng's defaults, giflib as browsers use it) and
        /// report what was recovered in ``Image/warnings``.
        case lenient
        /// Any damage is an ``ImageDecodingError``: for validators, fuzzing
        /// and differential tests against the references' strict modes.
        case strict
    }

    /// What to do with damaged input (default `.lenient`).
    public var mode: Mode = .lenient
    /// Output sample depth (default `.eightBit`).
    public var sampleDepth: SampleDepth = .eightBit
    /// Decode only the first frame of an animation (APNG, GIF).
    public var firstFrameOnly: Bool = false
    /// Decode at 1/`scaleDenominator` of the size where the format allows it
    /// cheaply (JPEG DCT scaling: 1, 2, 4 or 8). Other decoders ignore it.
    public var scaleDenominator: Int = 1
    /// JPEG decoded at 1/8: leave undecoded the progressive AC scans (T.81
    /// §G.1.2.2) of components whose 8×8 blocks become single pixels, since a
    /// 1×1 inverse DCT uses only the DC coefficient (libjpeg's `jpeg_idct_1x1`).
    /// The pixels are the same; what changes is that damage inside a skipped
    /// scan goes unnoticed (no warning, no error in strict mode), and a large
    /// progressive photo's thumbnail decodes 2–3× faster. Default `false`;
    /// ``ThumbnailDecoder`` turns it on.
    public var skipsUnusedScans: Bool = false
    /// Resource bounds, checked before allocating.
    public var limits: DecodingLimits = DecodingLimits()
    /// Ask the kernel for transparent huge pages (`MADV_HUGEPAGE`) on output buffers of
    /// 4 MiB or more (default `true`). Faulting in 4 KiB pages is a fifth of the time of a
    /// large PNG decode; with huge pages it nearly vanishes. Turn it off where THP's direct
    /// compaction stalls matter more (the kernel's `defrag` setting applies to advised memory).
    public var adviseHugePages: Bool = true
    /// What to do with an embedded ICC profile (default ``ColorPolicy/preserve``).
    public var colorPolicy: ColorPolicy = .preserve

    public init() {}

    public init(mode: Mode = .lenient, sampleDepth: SampleDepth = .eightBit, firstFrameOnly: Bool = false,
                scaleDenominator: Int = 1, limits: DecodingLimits = DecodingLimits(),
                adviseHugePages: Bool = true) {
        self.mode = mode
        self.sampleDepth = sampleDepth
        self.firstFrameOnly = firstFrameOnly
        self.scaleDenominator = scaleDenominator
        self.limits = limits
        self.adviseHugePages = adviseHugePages
    }
}
