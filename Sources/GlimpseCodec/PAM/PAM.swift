/// Netpbm PAM (`P7`) with `TUPLTYPE RGB_ALPHA`: the plain interchange format the
/// CLI writes and the tests compare against the reference decoder's dumps.
///
/// Samples are 8-bit (`MAXVAL 255`) or 16-bit big-endian (`MAXVAL 65535`), as
/// the Netpbm PAM specification defines.
public enum PAM {
    /// Encodes `pixels` as PAM; RGBA16 buffers are written with `MAXVAL 65535`.
    public static func encode(_ pixels: PixelBuffer) -> [UInt8] {
        let maxval = pixels.format.maximumSampleValue
        var out = Array("P7\nWIDTH \(pixels.width)\nHEIGHT \(pixels.height)\nDEPTH 4\nMAXVAL \(maxval)\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        switch pixels.format {
        case .rgba8:
            out.append(contentsOf: pixels.bytes)
        case .rgba16:
            out.reserveCapacity(out.count + pixels.bytes.count)
            pixels.bytes.withUnsafeBytes { raw in
                for i in stride(from: 0, to: raw.count, by: 2) {
                    let sample = raw.loadUnaligned(fromByteOffset: i, as: UInt16.self)
                    out.append(UInt8(truncatingIfNeeded: sample >> 8))
                    out.append(UInt8(truncatingIfNeeded: sample))
                }
            }
        }
        return out
    }

    /// Decodes a PAM file with 1 (grey), 2 (grey+alpha), 3 (RGB) or 4 (RGBA)
    /// channels at MAXVAL 255 or 65535 into RGBA8 or RGBA16.
    public static func decode(_ bytes: [UInt8]) throws(ImageDecodingError) -> PixelBuffer {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "7") else {
            throw .malformed(.pam(.signature))
        }
        var position = 2
        var fields: [String: String] = [:]
        while true {
            guard let newline = bytes[position...].firstIndex(of: 0x0A) else { throw .truncated }
            let line = String(decoding: bytes[position..<newline], as: UTF8.self)
            position = newline + 1
            if line == "ENDHDR" { break }
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let width = fields["WIDTH"].flatMap({ Int($0) }), let height = fields["HEIGHT"].flatMap({ Int($0) }),
              let depth = fields["DEPTH"].flatMap({ Int($0) }), (1...4).contains(depth),
              let maxval = fields["MAXVAL"].flatMap({ Int($0) }), maxval == 255 || maxval == 65535,
              width >= 0, height >= 0, width <= 1 << 20, height <= 1 << 20 else {
            throw .malformed(.pam(.header))
        }
        let sampleBytes = maxval == 255 ? 1 : 2
        let needed = width * height * depth * sampleBytes
        guard bytes.count - position >= needed else { throw .truncated }
        var out = PixelBuffer(width: width, height: height, format: sampleBytes == 1 ? .rgba8 : .rgba16)
        let top = maxval
        out.bytes.withUnsafeMutableBytes { destination in
            for pixel in 0..<(width * height) {
                var samples = [Int](repeating: top, count: 4)
                for channel in 0..<depth {
                    let offset = position + (pixel * depth + channel) * sampleBytes
                    samples[channel] = sampleBytes == 1 ? Int(bytes[offset]) : Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
                }
                let rgba: [Int] = switch depth {
                case 1: [samples[0], samples[0], samples[0], top]
                case 2: [samples[0], samples[0], samples[0], samples[1]]
                case 3: [samples[0], samples[1], samples[2], top]
                default: samples
                }
                for channel in 0..<4 {
                    if sampleBytes == 1 {
                        destination[pixel * 4 + channel] = UInt8(rgba[channel])
                    } else {
                        destination.storeBytes(of: UInt16(rgba[channel]), toByteOffset: (pixel * 4 + channel) * 2, as: UInt16.self)
                    }
                }
            }
        }
        return out
    }
}
