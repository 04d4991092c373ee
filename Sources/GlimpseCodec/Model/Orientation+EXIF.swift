extension Orientation {
    /// The smallest EXIF TIFF structure stating this orientation: a big-endian
    /// header and IFD0 with the one SHORT entry 0x0112 (EXIF 2.3 §4.6.4; what the
    /// PNG `eXIf`, JPEG APP1 and WebP `EXIF` writers store).
    var exifTIFF: [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
         0, UInt8(truncatingIfNeeded: rawValue), 0, 0, 0, 0, 0, 0]
    }
}
