/// AVIF (AV1 Image File Format, AOMedia): one or more AV1 key frames (AV1 Bitstream &
/// Decoding Process Specification) stored as items of a HEIF container (ISO/IEC 23008-12,
/// built on the ISO base media file format boxes of ISO/IEC 14496-12), with the MIAF
/// (ISO/IEC 23000-22) and AV1-ISOBMFF constraints the AVIF specification adds.
///
/// The namespace holds one stage per folder: `Container/` reads boxes, `Items/` resolves
/// the primary item with its properties, references and data, `OBU/` parses the AV1
/// headers of the coded data, and `Decoding/` joins them into ``AVIF/Decoder``.
/// `AV1/` decodes the key frame's tiles to planes (``AVIF/Decoder/decodePlanes(applyingFilmGrain:)``);
/// the step from planes to an ``Image`` is not implemented yet, so `finish()` throws
/// ``UnsupportedFeature/avif(_:)``.
public enum AVIF {}
