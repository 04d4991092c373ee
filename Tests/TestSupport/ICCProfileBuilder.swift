import GlimpseCodec

/// Writes small ICC profiles for tests: a header (ICC.1:2022 §7.2), a tag table
/// (§7.3) and the tags given, so parser and transform tests need no installed files.
public struct ICCProfileBuilder: Sendable {
    public var version: UInt8 = 4
    public var deviceClass = "mntr"
    public var colorSpace = "RGB "
    public var connectionSpace = "XYZ "
    public var tags: [(signature: String, data: [UInt8])] = []

    public init(version: UInt8 = 4, deviceClass: String = "mntr", colorSpace: String = "RGB ", connectionSpace: String = "XYZ ",
                tags: [(signature: String, data: [UInt8])] = []) {
        self.version = version
        self.deviceClass = deviceClass
        self.colorSpace = colorSpace
        self.connectionSpace = connectionSpace
        self.tags = tags
    }

    public func build() -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 128)
        header[8] = version
        put(deviceClass, into: &header, at: 12)
        put(colorSpace, into: &header, at: 16)
        put(connectionSpace, into: &header, at: 20)
        put("acsp", into: &header, at: 36)
        var table = ICCProfileBuilder.be32(UInt32(tags.count))
        var body = [UInt8]()
        let dataStart = 128 + 4 + 12 * tags.count
        for tag in tags {
            let offset = dataStart + body.count
            table += Array(tag.signature.utf8) + ICCProfileBuilder.be32(UInt32(offset)) + ICCProfileBuilder.be32(UInt32(tag.data.count))
            body += tag.data
            while body.count % 4 != 0 { body.append(0) }
        }
        var bytes = header + table + body
        let size = ICCProfileBuilder.be32(UInt32(bytes.count))
        bytes.replaceSubrange(0..<4, with: size)
        return bytes
    }

    private func put(_ text: String, into bytes: inout [UInt8], at offset: Int) {
        for (i, byte) in text.utf8.prefix(4).enumerated() { bytes[offset + i] = byte }
    }

    public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    public static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    public static func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }

    public static func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
    }

    public static func para(_ function: UInt16, _ parameters: [Double]) -> [UInt8] {
        Array("para".utf8) + [0, 0, 0, 0] + be16(function) + [0, 0] + parameters.flatMap(s15)
    }

    public static func curv(_ entries: [UInt16]) -> [UInt8] {
        Array("curv".utf8) + [0, 0, 0, 0] + be32(UInt32(entries.count)) + entries.flatMap(be16)
    }

    /// An `mft2` tag with identity curves of two entries and the given grid samples.
    public static func mft2(inputs: UInt8, outputs: UInt8, points: UInt8, samples: [UInt16]) -> [UInt8] {
        var bytes = Array("mft2".utf8) + [0, 0, 0, 0, inputs, outputs, points, 0]
        for i in 0..<9 { bytes += s15(i % 4 == 0 ? 1 : 0) }
        bytes += be16(2) + be16(2)
        for _ in 0..<inputs { bytes += be16(0) + be16(65535) }
        bytes += samples.flatMap(be16)
        for _ in 0..<outputs { bytes += be16(0) + be16(65535) }
        return bytes
    }

    /// A matrix/TRC RGB profile with the given colorant columns and one curve for all channels.
    public static func matrixShaper(red: (Double, Double, Double), green: (Double, Double, Double),
                             blue: (Double, Double, Double), curve: [UInt8]) -> ICCProfileBuilder {
        var builder = ICCProfileBuilder()
        builder.tags = [
            ("wtpt", xyz(0.9642, 1, 0.8249)),
            ("rXYZ", xyz(red.0, red.1, red.2)), ("gXYZ", xyz(green.0, green.1, green.2)), ("bXYZ", xyz(blue.0, blue.1, blue.2)),
            ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
        ]
        return builder
    }

    /// sRGB's D50 colorants (as LittleCMS computes them) and its `para` curve.
    public static let sRGB = matrixShaper(red: (0.436065, 0.222488, 0.013920), green: (0.385151, 0.716904, 0.097081),
                                   blue: (0.143066, 0.060608, 0.714099),
                                   curve: para(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]))

    /// Adobe RGB (1998)'s D50 colorants with γ 563/256.
    public static let adobeRGB = matrixShaper(red: (0.60974, 0.31111, 0.01947), green: (0.20528, 0.62567, 0.06087),
                                       blue: (0.14919, 0.06322, 0.74457), curve: curv([563]))
}
