extension ICC.Curve {
    /// Parses a `curv` or `para` element at the start of `reader` and returns it
    /// with the bytes it occupies (so curve sequences in `mAB`/`mBA` can step on).
    static func parse(_ reader: ICC.ByteReader, limits: ICC.Limits) throws(ICC.ProfileError) -> (curve: ICC.Curve, length: Int) {
        let type = try reader.type
        switch type {
        case "curv":
            let count = Int(try reader.uint32(8))
            guard count <= limits.maximumCurveEntries else { throw .curveEntries(tag: reader.tag, count: count) }
            try reader.require(12, count * 2)
            switch count {
            case 0:
                return (.identity, 12)
            case 1:
                return (.gamma(Double(try reader.uint16(12)) / 256), 14)
            default:
                var entries = [UInt16]()
                entries.reserveCapacity(count)
                for i in 0..<count { entries.append(try reader.uint16(12 + 2 * i)) }
                return (.table(entries), 12 + 2 * count)
            }
        case "para":
            let function = Int(try reader.uint16(8))
            guard function < Parametric.parameterCounts.count else {
                throw .parametricFunction(tag: reader.tag, function: function)
            }
            let count = Parametric.parameterCounts[function]
            var values = [Double]()
            for i in 0..<count { values.append(try reader.s15Fixed16(12 + 4 * i)) }
            values += [Double](repeating: 0, count: 7 - count)
            var p = Parametric(function: function, g: values[0])
            if function >= 1 { p.a = values[1]; p.b = values[2] }
            if function == 2 { p.c = values[3] }
            if function >= 3 { p.c = values[3]; p.d = values[4] }
            if function == 4 { p.e = values[5]; p.f = values[6] }
            return (.parametric(p), 12 + 4 * count)
        default:
            throw .tagType(tag: reader.tag, type: type)
        }
    }

    /// `count` curves stored one after another, each padded to 4 bytes (§10.12.2).
    static func parseSequence(_ reader: ICC.ByteReader, count: Int, limits: ICC.Limits) throws(ICC.ProfileError) -> [ICC.Curve] {
        var curves = [ICC.Curve]()
        var offset = 0
        for _ in 0..<count {
            let (curve, length) = try parse(try reader.suffix(from: offset), limits: limits)
            curves.append(curve)
            offset += (length + 3) & ~3
        }
        return curves
    }
}
