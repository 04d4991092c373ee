/// What a decoder learns about an image besides its pixels.
///
/// Samples are returned as stored unless ``DecodingOptions/colorPolicy`` converts them
/// (``ColorPolicy/convertToSRGB``, which then drops the colour descriptions below).
public struct ImageMetadata: Sendable, Hashable {
    /// EXIF orientation (PNG `eXIf`, JPEG APP1 `Exif`); `.up` when absent.
    public var orientation: Orientation = .up
    /// The ICC profile bytes (PNG `iCCP` inflated, JPEG APP2 reassembled).
    public var iccProfile: [UInt8]?
    /// Physical density (PNG `pHYs`, JFIF).
    public var density: PixelDensity?
    /// Image gamma (PNG `gAMA` §11.3.3.2): the stored value divided by 100 000.
    public var gamma: Double?
    /// Primary chromaticities and white point (PNG `cHRM` §11.3.3.1).
    public var chromaticities: Chromaticities?
    /// Rendering intent 0…3 when the image declares sRGB (PNG `sRGB` §11.3.3.5).
    public var sRGBIntent: UInt8?
    /// The H.273 colour description (PNG `cICP`; AVIF `colr` `nclx`, else the AV1 sequence header).
    public var cicp: CodingIndependentCodePoints?
    /// The Exif payload from its TIFF header on (AVIF `Exif` item after its offset prefix).
    public var exif: [UInt8]?
    /// The XMP packet (AVIF `mime` item of type `application/rdf+xml`).
    public var xmp: [UInt8]?

    public init() {}
}

/// CIE 1931 xy chromaticities of the white point and the three primaries.
public struct Chromaticities: Sendable, Hashable {
    public var white: (x: Double, y: Double) { (whiteX, whiteY) }
    public var whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY: Double

    public init(whiteX: Double, whiteY: Double, redX: Double, redY: Double,
                greenX: Double, greenY: Double, blueX: Double, blueY: Double) {
        self.whiteX = whiteX; self.whiteY = whiteY
        self.redX = redX; self.redY = redY
        self.greenX = greenX; self.greenY = greenY
        self.blueX = blueX; self.blueY = blueY
    }
}
