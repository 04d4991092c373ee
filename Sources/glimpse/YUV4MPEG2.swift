import GlimpseCodec

/// YUV4MPEG2 as libavif's `avifdec OUT.y4m` writes it (libavif 0.11 `apps/shared/y4m.c`):
/// `YUV4MPEG2 W… H… F25:1 Ip A0:0 C… XYSCSS=… XCOLORRANGE=…`, one `FRAME`, then the planes
/// (luma only for 4:0:0), 8-bit samples as bytes and deeper ones as 16-bit little-endian.
enum YUV4MPEG2 {
    static func encode(_ planes: AVIF.DecodedPlanes) -> [UInt8] {
        let depth = planes.bitDepth
        let layout: (tag: String, xyscss: String)
        if planes.isMonochrome {
            layout = depth == 8 ? ("mono", "400") : ("mono\(depth)", "400")
        } else {
            let name = planes.subsamplingX == 1 ? (planes.subsamplingY == 1 ? "420" : "422") : "444"
            if depth == 8 {
                layout = name == "420" ? ("420jpeg", "420JPEG") : (name, name)
            } else {
                layout = ("\(name)p\(depth)", "\(name)P\(depth)")
            }
        }
        let range = planes.isFullRange ? "FULL" : "LIMITED"
        let header = "YUV4MPEG2 W\(planes.width) H\(planes.height) F25:1 Ip A0:0 C\(layout.tag) XYSCSS=\(layout.xyscss) XCOLORRANGE=\(range)\nFRAME\n"
        var bytes = Array(header.utf8)
        for plane in planes.planes {
            if depth == 8 {
                bytes.append(contentsOf: plane.lazy.map { UInt8(truncatingIfNeeded: $0) })
            } else {
                bytes.reserveCapacity(bytes.count + 2 * plane.count)
                for sample in plane {
                    bytes.append(UInt8(truncatingIfNeeded: sample))
                    bytes.append(UInt8(truncatingIfNeeded: sample >> 8))
                }
            }
        }
        return bytes
    }
}
