extension ICC.LUT {
    /// Parses an `mft1`, `mft2`, `mAB` or `mBA` tag, checking channel counts
    /// against `inputs`/`outputs` (from the profile's colour spaces) and every
    /// declared size against `limits` before allocating.
    static func parse(_ reader: ICC.ByteReader, inputs: Int, outputs: Int, limits: ICC.Limits) throws(ICC.ProfileError) -> ICC.LUT {
        let type = try reader.type
        let inputChannels = Int(try reader.uint8(8)), outputChannels = Int(try reader.uint8(9))
        guard inputChannels == inputs, outputChannels == outputs, (1...15).contains(inputChannels), (1...15).contains(outputChannels) else {
            throw .channels(tag: reader.tag, inputs: inputChannels, outputs: outputChannels)
        }
        switch type {
        case "mft1", "mft2":
            return try parseLegacy(reader, wide: type == "mft2", inputs: inputChannels, outputs: outputChannels, limits: limits)
        case "mAB ", "mBA ":
            return try parseModular(reader, deviceToPCS: type == "mAB ", inputs: inputChannels, outputs: outputChannels, limits: limits)
        default:
            throw .tagType(tag: reader.tag, type: type)
        }
    }

    /// `mft1`/`mft2`: matrix (three inputs only, as LittleCMS applies it), input curves, CLUT, output curves.
    private static func parseLegacy(_ reader: ICC.ByteReader, wide: Bool, inputs: Int, outputs: Int,
                                    limits: ICC.Limits) throws(ICC.ProfileError) -> ICC.LUT {
        let points = Int(try reader.uint8(10))
        var matrix = [Double]()
        for i in 0..<9 { matrix.append(try reader.s15Fixed16(12 + 4 * i)) }
        let inputEntries = wide ? Int(try reader.uint16(48)) : 256
        let outputEntries = wide ? Int(try reader.uint16(50)) : 256
        for entries in [inputEntries, outputEntries] where entries < 2 || entries > min(4096, limits.maximumCurveEntries) {
            throw .curveEntries(tag: reader.tag, count: entries)
        }
        let gridSamples = try checkedGridSamples([Int](repeating: points, count: inputs), outputs: outputs, reader: reader, limits: limits)
        let sampleBytes = wide ? 2 : 1
        var offset = wide ? 52 : 48
        try reader.require(offset, (inputEntries * inputs + gridSamples + outputEntries * outputs) * sampleBytes)

        func sample(_ at: Int) throws(ICC.ProfileError) -> UInt16 {
            wide ? try reader.uint16(at) : UInt16(try reader.uint8(at)) &* 257
        }
        func tables(_ count: Int, entries: Int) throws(ICC.ProfileError) -> [ICC.Curve] {
            var curves = [ICC.Curve]()
            for _ in 0..<count {
                var values = [UInt16]()
                values.reserveCapacity(entries)
                for i in 0..<entries { values.append(try sample(offset + i * sampleBytes)) }
                offset += entries * sampleBytes
                curves.append(.table(values))
            }
            return curves
        }

        var stages = [Stage]()
        let m = ICC.Matrix3(matrix)
        if inputs == 3, m != .identity { stages.append(.matrix(m, offset: .zero)) }
        stages.append(.curves(try tables(inputs, entries: inputEntries)))
        var samples = [UInt16]()
        samples.reserveCapacity(gridSamples)
        for i in 0..<gridSamples { samples.append(try sample(offset + i * sampleBytes)) }
        offset += gridSamples * sampleBytes
        guard let clut = ICC.CLUT(gridPoints: [Int](repeating: points, count: inputs), outputChannels: outputs, samples: samples) else {
            throw .grid(tag: reader.tag, points: [points])
        }
        stages.append(.clut(clut))
        stages.append(.curves(try tables(outputs, entries: outputEntries)))
        return ICC.LUT(inputChannels: inputs, outputChannels: outputs, stages: stages, isLabVersion2Encoding: wide)
    }

    /// `mAB` runs A curves, CLUT, M curves, matrix, B curves; `mBA` the reverse.
    /// Absent elements have offset 0; the matrix and M curves need three channels on their side.
    private static func parseModular(_ reader: ICC.ByteReader, deviceToPCS: Bool, inputs: Int, outputs: Int,
                                     limits: ICC.Limits) throws(ICC.ProfileError) -> ICC.LUT {
        let offsetB = Int(try reader.uint32(12)), offsetMatrix = Int(try reader.uint32(16))
        let offsetM = Int(try reader.uint32(20)), offsetCLUT = Int(try reader.uint32(24))
        let offsetA = Int(try reader.uint32(28))
        // The A side is the device side, the B side the PCS side.
        let aChannels = deviceToPCS ? inputs : outputs
        let bChannels = deviceToPCS ? outputs : inputs

        func curves(_ offset: Int, _ count: Int) throws(ICC.ProfileError) -> Stage? {
            guard offset != 0 else { return nil }
            return .curves(try ICC.Curve.parseSequence(try reader.suffix(from: offset), count: count, limits: limits))
        }
        func matrix() throws(ICC.ProfileError) -> Stage? {
            guard offsetMatrix != 0 else { return nil }
            guard bChannels == 3 else { throw .channels(tag: reader.tag, inputs: inputs, outputs: outputs) }
            var v = [Double]()
            for i in 0..<12 { v.append(try reader.s15Fixed16(offsetMatrix + 4 * i)) }
            return .matrix(ICC.Matrix3(Array(v[0..<9])), offset: SIMD3(v[9], v[10], v[11]))
        }
        func clut() throws(ICC.ProfileError) -> Stage? {
            guard offsetCLUT != 0 else { return nil }
            let clutInputs = deviceToPCS ? inputs : bChannels
            let clutOutputs = deviceToPCS ? bChannels : outputs
            var points = [Int]()
            for i in 0..<clutInputs { points.append(Int(try reader.uint8(offsetCLUT + i))) }
            let precision = Int(try reader.uint8(offsetCLUT + 16))
            guard precision == 1 || precision == 2 else { throw .gridPrecision(tag: reader.tag, precision: precision) }
            let count = try checkedGridSamples(points, outputs: clutOutputs, reader: reader, limits: limits)
            let start = offsetCLUT + 20
            try reader.require(start, count * precision)
            var samples = [UInt16]()
            samples.reserveCapacity(count)
            for i in 0..<count {
                samples.append(precision == 2 ? try reader.uint16(start + 2 * i) : UInt16(try reader.uint8(start + i)) &* 257)
            }
            guard let table = ICC.CLUT(gridPoints: points, outputChannels: clutOutputs, samples: samples) else {
                throw .grid(tag: reader.tag, points: points)
            }
            return .clut(table)
        }

        // Without a CLUT the A side feeds the M/B side directly, so channel counts must agree.
        if offsetCLUT == 0, aChannels != bChannels { throw .channels(tag: reader.tag, inputs: inputs, outputs: outputs) }
        guard offsetB != 0 else { throw .tagTruncated(reader.tag) }
        if offsetM != 0, bChannels != 3 { throw .channels(tag: reader.tag, inputs: inputs, outputs: outputs) }
        let ordered: [Stage?]
        if deviceToPCS {
            ordered = [try curves(offsetA, aChannels), try clut(), try curves(offsetM, bChannels), try matrix(), try curves(offsetB, bChannels)]
        } else {
            ordered = [try curves(offsetB, bChannels), try matrix(), try curves(offsetM, bChannels), try clut(), try curves(offsetA, aChannels)]
        }
        return ICC.LUT(inputChannels: inputs, outputChannels: outputs, stages: ordered.compactMap { $0 }, isLabVersion2Encoding: false)
    }

    /// Grid samples (points^inputs × outputs), checked against the limit with overflow-safe arithmetic.
    private static func checkedGridSamples(_ points: [Int], outputs: Int, reader: ICC.ByteReader,
                                           limits: ICC.Limits) throws(ICC.ProfileError) -> Int {
        var total = outputs
        for p in points {
            guard p >= 2 else { throw .grid(tag: reader.tag, points: points) }
            let (product, overflow) = total.multipliedReportingOverflow(by: p)
            guard !overflow, product <= limits.maximumGridSamples else { throw .grid(tag: reader.tag, points: points) }
            total = product
        }
        return total
    }
}
