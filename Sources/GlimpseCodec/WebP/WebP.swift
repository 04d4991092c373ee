/// WebP (RIFF container, Google): lossy frames are VP8 key frames (RFC 6386),
/// lossless frames are VP8L bitstreams (RFC 9649), and the extended format
/// (`VP8X`) adds alpha (`ALPH`), animation (`ANIM`/`ANMF`) and metadata
/// (`ICCP`, `EXIF`, `XMP `).
///
/// The namespace holds the container parser, the two bitstream decoders and
/// the animation compositor, one stage per folder.
public enum WebP {}
