extension Chromaticities {
    /// The primaries and white point of an ITU-T H.273 `colour_primaries` code point (Table 2),
    /// or `nil` for the reserved and unspecified ones (0, 2, 3, 13–21, 23 and above).
    init?(colorPrimaries code: UInt16) {
        switch code {
        case 1: self = ColorTransform.SRGB.primaries  // BT.709, sRGB
        case 4:  // BT.470 System M
            self.init(whiteX: 0.310, whiteY: 0.316, redX: 0.67, redY: 0.33, greenX: 0.21, greenY: 0.71, blueX: 0.14, blueY: 0.08)
        case 5:  // BT.601 625 lines, BT.470 System B, G
            self.init(whiteX: 0.3127, whiteY: 0.3290, redX: 0.64, redY: 0.33, greenX: 0.29, greenY: 0.60, blueX: 0.15, blueY: 0.06)
        case 6, 7:  // BT.601 525 lines, SMPTE 240M
            self.init(whiteX: 0.3127, whiteY: 0.3290, redX: 0.630, redY: 0.340, greenX: 0.310, greenY: 0.595,
                      blueX: 0.155, blueY: 0.070)
        case 8:  // generic film (illuminant C)
            self.init(whiteX: 0.310, whiteY: 0.316, redX: 0.681, redY: 0.319, greenX: 0.243, greenY: 0.692,
                      blueX: 0.145, blueY: 0.049)
        case 9:  // BT.2020, BT.2100
            self.init(whiteX: 0.3127, whiteY: 0.3290, redX: 0.708, redY: 0.292, greenX: 0.170, greenY: 0.797,
                      blueX: 0.131, blueY: 0.046)
        case 10:  // SMPTE ST 428-1 (CIE XYZ): H.273's white is ⅓, ⅓; libavif's table, whose
            // chromaticity-derived matrices AVIF decoding reproduces, has 0.3333.
            self.init(whiteX: 0.3333, whiteY: 0.3333, redX: 1, redY: 0, greenX: 0, greenY: 1, blueX: 0, blueY: 0)
        case 11:  // SMPTE RP 431-2 (DCI-P3)
            self.init(whiteX: 0.314, whiteY: 0.351, redX: 0.680, redY: 0.320, greenX: 0.265, greenY: 0.690,
                      blueX: 0.150, blueY: 0.060)
        case 12:  // SMPTE EG 432-1 (Display P3)
            self.init(whiteX: 0.3127, whiteY: 0.3290, redX: 0.680, redY: 0.320, greenX: 0.265, greenY: 0.690,
                      blueX: 0.150, blueY: 0.060)
        case 22:  // EBU Tech. 3213-E
            self.init(whiteX: 0.3127, whiteY: 0.3290, redX: 0.630, redY: 0.340, greenX: 0.295, greenY: 0.605,
                      blueX: 0.155, blueY: 0.077)
        default: return nil
        }
    }
}
