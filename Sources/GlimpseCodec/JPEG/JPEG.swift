/// Baseline and progressive JPEG (ITU-T T.81 | ISO/IEC 10918-1), decoded the
/// way libjpeg-turbo does with its default settings (accurate integer IDCT,
/// fancy upsampling), so that the pixels match it byte for byte.
///
/// ``JPEG/Decoder`` is the entry point; see `README.md` in this folder for the
/// stages and how they map onto the specification.
public enum JPEG {
    /// Zig-zag position → natural (row-major) position (T.81 figure A.6), with
    /// 16 extra entries pointing at 63 so that a corrupt run that overshoots the
    /// block lands on the last coefficient instead of outside it (libjpeg does
    /// the same, which keeps us identical on such data).
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10,
        17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34,
        27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36,
        29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46,
        53, 60, 61, 54, 47, 55, 62, 63,
        63, 63, 63, 63, 63, 63, 63, 63,
        63, 63, 63, 63, 63, 63, 63, 63,
    ]
}
