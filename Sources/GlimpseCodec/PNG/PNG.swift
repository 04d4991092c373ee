/// Portable Network Graphics (ISO/IEC 15948, W3C PNG Third Edition) and its
/// animated extension APNG: an incremental ``Decoder`` and an ``Encoder``.
///
/// The folders follow the decoding stages: `Chunks/` (lexing bytes into
/// chunks, parsing IHDR, PLTE, tRNS and the ancillary chunks), `Decoding/`
/// (inflate, unfilter, de-interlace, expand to RGBA), `Animation/` (acTL,
/// fcTL, fdAT and frame composition) and `Encoding/`. `README.md` beside this
/// file walks through a real file byte by byte.
public enum PNG {
    /// The 8-byte signature every PNG starts with (PNG §5.2).
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
