/// EXIF orientation (TIFF/EXIF tag 0x0112): how the stored pixels must be
/// turned to be shown upright. Raw values are the tag's values 1…8.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transpose).
    case leftMirrored = 5
    /// 6: must be rotated 90° clockwise to display.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transverse).
    case rightMirrored = 7
    /// 8: must be rotated 90° counter-clockwise to display.
    case left = 8

    /// Whether displaying the image swaps its width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
