@testable import GlimpseCodec

/// Hand-built AVIF files: boxes from parts, so that a test can break exactly one thing.
enum AVIFTestFile {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// MSB-first bits, for the AV1 headers.
    struct Bits {
        var bytes: [UInt8] = []
        var count = 0
        mutating func put(_ value: Int, _ width: Int) {
            for shift in stride(from: width - 1, through: 0, by: -1) {
                if count % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> shift) & 1) << (7 - UInt8(count % 8))
                count += 1
            }
        }
    }

    /// A reduced still-picture sequence header OBU (AV1 §5.5) for an 8-bit 4:2:0 `width` × `height` frame.
    static func sequenceHeaderOBU(width: Int, height: Int) -> [UInt8] {
        var bits = Bits()
        bits.put(0, 3); bits.put(1, 1); bits.put(1, 1); bits.put(0, 5)  // profile, still, reduced, level
        bits.put(15, 4); bits.put(15, 4); bits.put(width - 1, 16); bits.put(height - 1, 16)
        bits.put(0, 3)  // 128x128, filter intra, intra edge
        bits.put(0, 3)  // superres, cdef, restoration
        bits.put(0, 1); bits.put(0, 1); bits.put(0, 1); bits.put(0, 1); bits.put(0, 2); bits.put(0, 1)  // color_config
        bits.put(0, 1)  // film grain
        bits.put(1, 1)  // trailing one bit
        return [0x0A, UInt8(bits.bytes.count)] + bits.bytes
    }

    /// A frame OBU whose header starts a shown key frame (the reduced header implies it), then filler.
    static func frameOBU() -> [UInt8] {
        let payload: [UInt8] = [0x00, 0x00, 0x00, 0x00]
        return [0x32, UInt8(payload.count)] + payload
    }

    static let av1C: [UInt8] = box("av1C", [0x81, 0x00, 0x0C, 0x00])

    /// A still AVIF of one `av01` item (id 1) `width` × `height`, its data in `mdat`, with
    /// `extraProperties` associated after ispe and av1C (essential when flagged) and `extraMeta`
    /// boxes appended to `meta`.
    static func still(width: Int = 64, height: Int = 48, extraProperties: [([UInt8], Bool)] = [],
                      items: [(id: Int, type: String)] = [], references: [UInt8] = [],
                      extraAssociations: [(item: Int, properties: [UInt8])] = [],
                      extentLength: Int? = nil, primary: Int = 1) -> [UInt8] {
        let data = sequenceHeaderOBU(width: width, height: height) + frameOBU()
        let ftyp = box("ftyp", Array("avif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8))
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = fullBox("pitm", be16(primary))
        var entries = fullBox("infe", version: 2, be16(1) + [0, 0] + Array("av01".utf8) + [0])
        for item in items { entries += fullBox("infe", version: 2, be16(item.id) + [0, 0] + Array(item.type.utf8) + [0]) }
        let iinf = fullBox("iinf", be16(1 + items.count) + entries)
        let ispe = fullBox("ispe", be32(UInt32(width)) + be32(UInt32(height)))
        let ipco = box("ipco", ispe + av1C + extraProperties.flatMap(\.0))
        var associations = [UInt8(2 + extraProperties.count), 0x01, 0x82]
        for (index, property) in extraProperties.enumerated() {
            associations.append(UInt8(index + 3) | (property.1 ? 0x80 : 0))
        }
        var ipmaEntries = be16(1) + associations
        for extra in extraAssociations { ipmaEntries += be16(extra.item) + [UInt8(extra.properties.count)] + extra.properties }
        let ipma = fullBox("ipma", be32(UInt32(1 + extraAssociations.count)) + ipmaEntries)
        let iprp = box("iprp", ipco + ipma)
        // iloc v0, offset 4, length 4, base 0; the offset is patched once the layout is known.
        func iloc(offset: Int) -> [UInt8] {
            fullBox("iloc", [0x44, 0x00] + be16(1) + be16(1) + [0, 0] + be16(1) + be32(UInt32(offset)) + be32(UInt32(extentLength ?? data.count)))
        }
        func meta(offset: Int) -> [UInt8] { fullBox("meta", hdlr + pitm + iinf + iloc(offset: offset) + iprp + references) }
        let offset = ftyp.count + meta(offset: 0).count + 8
        return ftyp + meta(offset: offset) + box("mdat", data)
    }
}
