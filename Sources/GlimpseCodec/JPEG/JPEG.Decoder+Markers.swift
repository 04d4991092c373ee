extension JPEG.Decoder {
    typealias Marker = JPEG.Marker

    /// Finds the next marker from `position` the way libjpeg's `next_marker`
    /// does: bytes before `0xFF` are skipped, fill `0xFF`s are skipped, and a
    /// stray `FF 00` is skipped. Returns the marker code and the offset after
    /// it, or, when the buffered input ends first, `nil` and the offset to
    /// search from once more input has arrived (the start of a trailing run of
    /// `0xFF`s, which the next byte may turn into a marker). `skipped` counts
    /// the extraneous bytes passed (not fill bytes), as libjpeg counts them.
    func findMarker(from start: Int, resume: inout Int, skipped: inout Int) -> (marker: UInt8, next: Int)? {
        var p = start
        let count = input.count
        while true {
            while p < count && input[p] != 0xFF { p += 1; skipped += 1 }
            let fill = p
            while p < count && input[p] == 0xFF { p += 1 }
            guard p < count else {
                resume = fill
                return nil
            }
            if input[p] == 0 { p += 1; skipped += 2; continue }
            return (input[p], p + 1)
        }
    }

    /// Handles one marker and its segment. Returns `false` when more input is needed.
    mutating func processNextMarker() throws(ImageDecodingError) -> Bool {
        var resume = position
        var skipped = 0
        guard let (marker, next) = findMarker(from: position, resume: &resume, skipped: &skipped) else {
            // The junk scanned so far is skipped for good: fed in small pieces,
            // a long stretch of it would otherwise be scanned again on every append.
            position = resume
            skippedBeforeMarker += skipped
            return false
        }
        // Reported once the marker is taken (not when more input is needed first, which
        // finds it again), and counted here, so that any chunking reports the same.
        let pending = skippedBeforeMarker + skipped
        func take() throws(ImageDecodingError) {
            skippedBeforeMarker = 0
            if pending > 0 { try recover(.extraneousBytes(count: pending, marker: marker)) }
        }
        switch marker {
        case Marker.eoi:
            try take()
            position = next
            try endOfImage()
            return true
        case Marker.soi:
            throw .malformed(.jpeg(.duplicateStartOfImage))
        case Marker.rst0...Marker.rst7, Marker.tem:
            try take()
            position = next
            return true
        default:
            break
        }
        guard next + 2 <= input.count else { return false }
        let length = Int(input[next]) << 8 | Int(input[next + 1])
        guard length >= 2 else {
            // libjpeg skips nothing for an APPn/COM (or DNL) length below 2 and resynchronises on the next marker.
            guard marker >= Marker.app0 || marker == Marker.dnl else { throw .malformed(.jpeg(.segmentLength(length))) }
            try take()
            position = next + 2
            return true
        }
        let end = next + length
        guard end <= input.count else { return false }
        try take()
        let body = input[(next + 2)..<end]
        position = end
        try handleSegment(marker: marker, body: body)
        return true
    }

    mutating func handleSegment(marker: UInt8, body: ArraySlice<UInt8>) throws(ImageDecodingError) {
        switch marker {
        case Marker.sof0, Marker.sof1, Marker.sof2:
            guard frame == nil else { throw .malformed(.jpeg(.duplicateFrame)) }
            try startFrame(JPEG.FrameHeader(parsing: body, marker: marker))
        case Marker.dht:
            try defineHuffmanTables(body)
        case Marker.dqt:
            try defineQuantTables(body)
        case Marker.dri:
            // libjpeg's get_dri wants exactly the two bytes of the interval.
            guard body.count == 2 else { throw .malformed(.jpeg(.segmentTooShort(marker: marker))) }
            restartInterval = Int(body[body.startIndex]) << 8 | Int(body[body.startIndex + 1])
        case Marker.sos:
            try startScan(body)
        case Marker.app0...0xEF, Marker.com:
            // libjpeg's examine_app0 looks at 14 bytes of a JFIF APP0 and warns about a major version other than 1.
            if marker == Marker.app0, body.count >= 14, Array(body.prefix(5)) == [0x4A, 0x46, 0x49, 0x46, 0],
               body[body.startIndex + 5] != 1 {
                try recover(.jfifVersion(major: body[body.startIndex + 5], minor: body[body.startIndex + 6]))
            }
            if scanCount == 0 { collector.collect(marker: marker, body: body) }
            if info != nil { let metadata = self.metadata; info?.metadata = metadata }
        case Marker.dac:
            try checkArithmeticConditioning(body)
        case Marker.dnl:
            break
        default:
            if Marker.isUnsupportedFrame(marker) { throw .unsupported(.jpegCodingProcess(marker: marker)) }
            throw .malformed(.jpeg(.unknownMarker(marker)))
        }
    }

    /// DHT (T.81 §B.2.4.2): one or more tables.
    mutating func defineHuffmanTables(_ body: ArraySlice<UInt8>) throws(ImageDecodingError) {
        var p = body.startIndex
        while p < body.endIndex {
            guard p + 17 <= body.endIndex else { throw .malformed(.jpeg(.segmentTooShort(marker: Marker.dht))) }
            let tc = Int(body[p] >> 4), th = Int(body[p] & 15)
            guard tc <= 1, th <= 3 else { throw .malformed(.jpeg(.huffmanTableIndex(tableClass: tc, index: th))) }
            var counts: [Int] = []
            for i in 1...16 { counts.append(Int(body[p + i])) }
            let total = counts.reduce(0, +)
            guard total <= 256, p + 17 + total <= body.endIndex else { throw .malformed(.jpeg(.segmentTooShort(marker: Marker.dht))) }
            let values = Array(body[(p + 17)..<(p + 17 + total)])
            try huffman.define(slot: tc * 4 + th, counts: counts, values: values)
            tablesFromDHT[tc * 4 + th] = true
            p += 17 + total
        }
    }

    /// DQT (T.81 §B.2.4.1): 8- or 16-bit tables, stored in zig-zag order.
    mutating func defineQuantTables(_ body: ArraySlice<UInt8>) throws(ImageDecodingError) {
        var p = body.startIndex
        while p < body.endIndex {
            let precision = Int(body[p] >> 4), tq = Int(body[p] & 15)
            // Any non-zero precision nibble means 16-bit values to libjpeg's get_dqt.
            guard tq <= 3 else { throw .malformed(.jpeg(.quantizationTableIndex(index: tq, precision: precision))) }
            let size = precision == 0 ? 64 : 128
            guard p + 1 + size <= body.endIndex else { throw .malformed(.jpeg(.segmentTooShort(marker: Marker.dqt))) }
            for k in 0..<64 {
                let value = precision == 0
                    ? Int(body[p + 1 + k])
                    : Int(body[p + 1 + 2 * k]) << 8 | Int(body[p + 2 + 2 * k])
                // libjpeg keeps the multiplier in 16 signed bits.
                quantTables[tq * 64 + JPEG.naturalOrder[k]] = Int16(truncatingIfNeeded: value)
            }
            quantDefined[tq] = true
            p += 1 + size
        }
    }

    mutating func startFrame(_ header: JPEG.FrameHeader) throws(ImageDecodingError) {
        let limits = options.limits
        try limits.checkDimensions(width: header.width, height: header.height)
        let layout = try JPEG.Layout(frame: header, scale: scale)
        // Everything the decode will hold: output, planes, and coefficients when progressive.
        var bytes = try limits.checkBytes(layout.outputWidth * layout.outputHeight, of: 4)
        bytes = try limits.checkBytes(layout.planeBytes, alreadyUsed: bytes) + bytes
        if header.progressive {
            bytes = try limits.checkBytes(layout.coefficientCount, of: 2, alreadyUsed: bytes) + bytes
        }
        frame = header
        self.layout = layout
        info = ImageInfo(format: .jpeg, width: layout.outputWidth, height: layout.outputHeight,
                         frameCount: 1, isAnimated: false, bitDepth: 8, hasAlpha: false, metadata: metadata)
    }

    /// Whether a progressive frame's coefficients can be stored DC-only for its 1×1-block
    /// components (``JPEG/Layout/withDCOnlyCoefficients()``): when its AC scans for them are
    /// to be skipped, and the whole file is already here, ending in EOI. Then a marker
    /// follows every scan, so each such AC scan is skipped (never decoded "for its
    /// bookkeeping", which a scan cut short by the end of the file is), and the output is
    /// exactly that of the full store. A file fed in pieces keeps the full store.
    func storesDCOnly(_ layout: JPEG.Layout) -> Bool {
        options.skipsUnusedScans && layout.components.contains { $0.blockSize == 1 }
            && input.count >= 2 && input[input.count - 2] == 0xFF && input[input.count - 1] == JPEG.Marker.eoi
    }

    mutating func startScan(_ body: ArraySlice<UInt8>) throws(ImageDecodingError) {
        guard let frame, var layout else { throw .malformed(.jpeg(.scanBeforeFrame)) }
        scanCount += 1
        if scanCount > options.limits.maxScans { throw .limitExceeded(.scans) }
        let header = try JPEG.ScanHeader(parsing: body, frame: frame)
        // libjpeg decodes a sequential frame whose first scan holds every component as
        // its only scan (no coefficient buffer), and fails on a second SOS.
        if singleScan { throw .malformed(.jpeg(.scanAfterLastScan)) }
        if header.components.count > 1 {
            let blocks = header.components.reduce(0) { $0 + frame.components[$1.index].h * frame.components[$1.index].v }
            if blocks > 10 { throw .malformed(.jpeg(.mcuSize(blocks: blocks))) }
        }
        if header.nonSequentialParameters { try recover(.sequentialScanParameters) }
        if scanCount == 1 {
            singleScan = !frame.progressive && header.components.count == frame.components.count
            try checkColorSpace(frame)
            transform = JPEG.ColorTransform.choose(componentIDs: frame.components.map(\.id), sawJFIF: collector.sawJFIF,
                                                   adobeTransform: collector.adobeTransform)
            if let ink = transform.inkVariant, let cmyk = options.colorPolicy.cmykTransform(for: collector.metadata.iccProfile) {
                transform = ink
                profileTransform = cmyk
            }
            let count = frame.components.count
            componentQuant = [Int32](repeating: 0, count: count * 64)
            quantLatched = [Bool](repeating: false, count: count)
            planeRowsDone = [Int](repeating: 0, count: count)
            coefficientBits = [Int](repeating: -1, count: count * 10)
            if frame.progressive || !singleScan {
                // A sequential frame coded in several scans keeps coefficients too: libjpeg
                // decodes every scan into one coefficient buffer without clearing it, so a
                // component coded twice keeps the earlier scan's coefficients the later one
                // leaves zero, and nothing is output before the end of the image.
                if !frame.progressive {
                    _ = try options.limits.checkBytes(layout.coefficientCount, of: 2,
                                                      alreadyUsed: layout.outputWidth * layout.outputHeight * 4)
                } else if storesDCOnly(layout) {
                    layout = layout.withDCOnlyCoefficients()
                    self.layout = layout
                }
                coefficients = JPEG.CoefficientBuffer(count: layout.coefficientCount, adviseHugePages: options.adviseHugePages)
            } else {
                if header.components.count == count {
                    layout = layout.withRingPlanes()
                    self.layout = layout
                }
                // 128 is what a block of zero coefficients transforms to, so a component that
                // no scan codes (a file that ends early) comes out as libjpeg makes it.
                planes = [UInt8](repeating: 128, count: layout.planeBytes)
                output = PixelStorage.uninitializedBytes(count: layout.outputWidth * layout.outputHeight * 4,
                                                         adviseHugePages: options.adviseHugePages)
            }
        }
        for component in header.components {
            let tq = frame.components[component.index].quantTable
            if !quantLatched[component.index] {
                guard tq < 4, quantDefined[tq] else { throw .malformed(.jpeg(.undefinedQuantizationTable(tq))) }
                for k in 0..<64 { componentQuant[component.index * 64 + k] = Int32(quantTables[tq * 64 + k]) }
                quantLatched[component.index] = true
            }
            let needsDC = !frame.progressive || (header.ss == 0 && header.ah == 0)
            let needsAC = !frame.progressive || header.ss > 0
            // libjpeg supplies the K.3 tables to sequential frames only (jinit_huff_decoder).
            func usable(_ slot: Int) -> Bool { huffman.defined[slot] && (!frame.progressive || tablesFromDHT[slot]) }
            if needsDC {
                guard component.dcTable <= 3, usable(component.dcTable) else {
                    throw .malformed(.jpeg(.undefinedHuffmanTable(isAC: false, index: component.dcTable)))
                }
                if let defect = huffman.defects[component.dcTable] { throw .malformed(.jpeg(defect)) }
            }
            if needsAC {
                guard component.acTable <= 3, usable(4 + component.acTable) else {
                    throw .malformed(.jpeg(.undefinedHuffmanTable(isAC: true, index: component.acTable)))
                }
                if let defect = huffman.defects[4 + component.acTable] { throw .malformed(.jpeg(defect)) }
            }
        }
        if frame.progressive {
            try checkProgression(header, components: frame.components.count)
            for component in header.components where header.ss <= 9 {
                for k in header.ss...min(header.se, 9) { coefficientBits[component.index * 10 + k] = header.al }
            }
        }
        scan = ScanState(header: header, reader: JPEG.BitReader(position: position),
                         restartsLeft: restartInterval, searchPosition: position)
        lastGoodRow = 0
        phase = coefficients == nil ? .sequentialScan : .progressiveScan
    }

    mutating func endOfImage() throws(ImageDecodingError) {
        guard frame != nil else { throw .malformed(.jpeg(.missingFrame)) }
        guard scanCount > 0 else { throw .malformed(.jpeg(.missingScan)) }
        if let layout, coefficients == nil {
            // Components a sequential file never coded stay as they are; show every row.
            for c in 0..<planeRowsDone.count { planeRowsDone[c] = layout.components[c].planeHeight }
            renderReadyRows()
        }
        phase = .done
    }
}

extension JPEG.Decoder {
    /// The colour space libjpeg guesses at the first SOS (`default_decompress_parms`):
    /// two components have none it can convert to RGB, and an Adobe transform it does
    /// not know is a warning.
    mutating func checkColorSpace(_ frame: JPEG.FrameHeader) throws(ImageDecodingError) {
        switch frame.components.count {
        case 2:
            throw .unsupported(.jpegComponentCount(2))
        case 3:
            if !collector.sawJFIF, let transform = collector.adobeTransform, transform > 1 {
                try recover(.adobeTransform(transform))
            }
        case 4:
            if let transform = collector.adobeTransform, transform != 0, transform != 2 {
                try recover(.adobeTransform(transform))
            }
        default:
            break
        }
    }

    /// libjpeg's progression checks (`start_pass_phuff_decoder`): an AC scan before
    /// the component's DC, or a scan whose Ah is not the Al of the coefficient's last
    /// scan, is a warning. Also keeps the bits before this scan for block smoothing.
    mutating func checkProgression(_ header: JPEG.ScanHeader, components: Int) throws(ImageDecodingError) {
        if progression.isEmpty {
            progression = [Int](repeating: -1, count: components * 64)
            previousCoefficientBits = [Int](repeating: -1, count: components * 10)
        }
        var warning: JPEG.Defect?
        for component in header.components {
            let c = component.index
            if header.ss != 0 && progression[c * 64] < 0 {
                warning = warning ?? .progressionSequence(component: c, coefficient: 0)
            }
            for k in min(header.ss, 1)...max(header.se, 9) where k < 10 {
                previousCoefficientBits[c * 10 + k] = scanCount > 1 ? coefficientBits[c * 10 + k] : 0
            }
            for k in header.ss...header.se {
                let expected = max(progression[c * 64 + k], 0)
                if header.ah != expected { warning = warning ?? .progressionSequence(component: c, coefficient: k) }
                progression[c * 64 + k] = header.al
            }
        }
        if let warning { try recover(warning) }
    }
}

extension JPEG.Decoder {
    /// DAC (T.81 §B.2.4.3): arithmetic coding is not supported, but libjpeg checks
    /// the segment wherever it appears (`get_dac`), so a broken one fails here too.
    func checkArithmeticConditioning(_ body: ArraySlice<UInt8>) throws(ImageDecodingError) {
        guard body.count % 2 == 0 else { throw .malformed(.jpeg(.segmentTooShort(marker: Marker.dac))) }
        var p = body.startIndex
        while p < body.endIndex {
            let index = body[p], value = body[p + 1]
            // 16 tables of each class; a DC table's lower bound L may not exceed its upper bound U.
            guard index < 32, index >= 16 || value & 15 <= value >> 4 else {
                throw .malformed(.jpeg(.arithmeticConditioning(index: index, value: value)))
            }
            p += 2
        }
    }
}
