extension ICC.Profile {
    /// An `XYZ ` tag holding one value (§10.31).
    static func xyz(_ reader: ICC.ByteReader) throws(ICC.ProfileError) -> ICC.XYZ {
        let type = try reader.type
        guard type == "XYZ " else { throw .tagType(tag: reader.tag, type: type) }
        return ICC.XYZ(x: try reader.s15Fixed16(8), y: try reader.s15Fixed16(12), z: try reader.s15Fixed16(16))
    }

    /// An `sf32` tag of nine values (the `chad` matrix, §9.2.15).
    static func matrix(_ reader: ICC.ByteReader) throws(ICC.ProfileError) -> ICC.Matrix3 {
        let type = try reader.type
        guard type == "sf32" else { throw .tagType(tag: reader.tag, type: type) }
        var values = [Double]()
        for i in 0..<9 { values.append(try reader.s15Fixed16(8 + 4 * i)) }
        return ICC.Matrix3(values)
    }

    /// A TRC: one `curv` or `para` element.
    static func curve(_ reader: ICC.ByteReader, _ limits: ICC.Limits) throws(ICC.ProfileError) -> ICC.Curve {
        try ICC.Curve.parse(reader, limits: limits).curve
    }

    /// The text of a `desc` (ICC.1:2001 §6.5.17: ASCII part), `mluc` (§10.15: first
    /// record, UTF-16BE) or `text` tag; `nil` when it cannot be read (descriptions never stop a conversion).
    static func text(_ reader: ICC.ByteReader) -> String? {
        do {
            switch try reader.type {
            case "desc":
                let length = Int(try reader.uint32(8))
                try reader.require(12, length)
                var bytes = [UInt8]()
                for i in 0..<length { bytes.append(try reader.uint8(12 + i)) }
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            case "mluc":
                guard try reader.uint32(8) > 0 else { return nil }
                let length = Int(try reader.uint32(20)), offset = Int(try reader.uint32(24))
                try reader.require(offset, length)
                var units = [UInt16]()
                for i in 0..<(length / 2) { units.append(try reader.uint16(offset + 2 * i)) }
                return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
            case "text":
                var bytes = [UInt8]()
                for i in 8..<reader.count { bytes.append(try reader.uint8(i)) }
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            default:
                return nil
            }
        } catch {
            return nil
        }
    }
}
