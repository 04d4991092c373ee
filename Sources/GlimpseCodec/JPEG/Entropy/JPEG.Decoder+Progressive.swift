extension JPEG.Decoder {
    /// Decodes a progressive scan (T.81 §G.1.2) once all of its data is
    /// buffered, into the coefficient store. Returns `false` when more input
    /// is needed.
    mutating func decodeProgressiveScan() throws(ImageDecodingError) -> Bool {
        guard var scan, let layout else { return true }
        // The scan ends at the first marker other than RSTn (and, with restarts, other than
        // the invalid codes below SOF0, which libjpeg's resynchronisation skips).
        var p = max(scan.searchPosition, scan.reader.position)
        let count = input.count
        var found = false
        let skipsInvalid = restartInterval > 0
        while p + 1 < count {
            if input[p] == 0xFF {
                let next = input[p + 1]
                if next != 0 && next != 0xFF && !JPEG.Marker.isRestart(next) && !(skipsInvalid && next < JPEG.Marker.sof0) {
                    found = true
                    break
                }
            }
            p += 1
        }
        if !found && !inputEnded {
            scan.searchPosition = p
            self.scan = scan
            return false
        }
        let header = scan.header
        if found && options.skipsUnusedScans && header.ss > 0 && frame?.progressive == true,
           let last = header.components.first.map({ layout.components[$0.index] }),
           header.components.allSatisfy({ layout.components[$0.index].blockSize == 1 }) {
            // Only DC reaches a 1×1 block: the scan's coefficients would never be seen. A scan
            // cut short by the end of the file is decoded as usual, for its bookkeeping.
            lastGoodRow = max(0, (last.scanBlocksY - 1) / max(1, last.v))
            position = p
            self.scan = nil
            phase = .markers
            return true
        }
        let restartInterval = self.restartInterval
        var coefficients = self.coefficients
        self.coefficients = []
        var step = JPEG.ScanStep.decoded
        let components = UnsafeMutablePointer<JPEG.ScanComponent>.allocate(capacity: 4)
        defer { components.deallocate() }
        input.withUnsafeBufferPointer { bytes in
            coefficients.withUnsafeMutableBufferPointer { coefficientBuffer in
                huffman.storage.withUnsafeBufferPointer { tables in
                    componentQuant.withUnsafeBufferPointer { quant in
                        // Sized from `layout` at the first scan; offsets come from the same layout.
                        guard let coefficientBase = coefficientBuffer.baseAddress, let tableBase = tables.baseAddress,
                              let quantBase = quant.baseAddress else { return }
                        for (i, sc) in header.components.enumerated() {
                            let c = layout.components[sc.index]
                            components[i] = JPEG.ScanComponent(
                                index: sc.index, h: c.h, v: c.v, blockSize: c.blockSize, blocksPerLine: c.blocksPerLine,
                                scanBlocksX: c.scanBlocksX, scanBlocksY: c.scanBlocksY, planeStride: c.planeStride, ringRows: c.ringRows,
                                plane: nil, coefficients: coefficientBase + c.coefficientOffset,
                                quant: quantBase + sc.index * 64, quant16: nil,
                                dcTable: tableBase + (sc.dcTable & 3) * JPEG.HuffmanTables.stride,
                                acTable: tableBase + (4 + (sc.acTable & 3)) * JPEG.HuffmanTables.stride)
                        }
                        step = Self.decodeProgressive(&scan, bytes: bytes, components: components,
                                                      count: header.components.count, layout: layout,
                                                      restartInterval: restartInterval,
                                                      sequential: !(frame?.progressive ?? true))
                    }
                }
            }
        }
        self.coefficients = coefficients
        if scan.reader.paddedAtEOF { truncated = true }
        if step == .coefficientOverflow { throw .malformed(.jpeg(.dcCoefficientRange)) }
        var recoveries = scan.recoveries
        if scan.reader.badCode { recoveries.append(.huffmanCode) }
        for recovery in recoveries { try recover(recovery) }
        lastGoodRow = scan.lastGoodRow
        position = scan.reader.position
        self.scan = nil
        phase = .markers
        return true
    }

    static func decodeProgressive(_ scan: inout ScanState, bytes: UnsafeBufferPointer<UInt8>,
                                  components: UnsafeMutablePointer<JPEG.ScanComponent>, count: Int,
                                  layout: JPEG.Layout, restartInterval: Int, sequential: Bool) -> JPEG.ScanStep {
        let header = scan.header
        let interleaved = count > 1
        let columns = interleaved ? layout.mcusX : components[0].scanBlocksX
        let rows = interleaved ? layout.mcusY : components[0].scanBlocksY
        let natural = JPEG.naturalOrder
        // Locals live in registers; the scan state is written back on every exit.
        var reader = scan.reader, eobRun = scan.eobRun, predictors = scan.predictors
        defer {
            scan.reader = reader
            scan.eobRun = eobRun
            scan.predictors = predictors
        }
        return natural.withUnsafeBufferPointer { naturalBuffer -> JPEG.ScanStep in
            // 80 entries: every index below is at most 63 + 16.
            let zigzag = naturalBuffer.baseAddress.unsafelyUnwrapped
            let refinesDC = header.ss == 0 && header.ah != 0 && !sequential
            let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: 64)
            scratch.initialize(repeating: 0, count: 64)
            defer { scratch.deallocate() }
            for row in 0..<rows {
                // libjpeg's iMCU row: a scan of one component has `v` block rows per iMCU row.
                let iMCURow = interleaved ? row : row / components[0].v
                for column in 0..<columns {
                    // libjpeg notes the row before the MCU's restart processing (jdcoefct.c consume_data).
                    if !scan.insufficient { scan.lastGoodRow = iMCURow }
                    if restartInterval > 0 {
                        if scan.restartsLeft == 0 {
                            scan.reader = reader
                            _ = restart(&scan, &reader, bytes: bytes, final: true)
                            predictors = SIMD4()
                            eobRun = 0
                            scan.restartsLeft = restartInterval
                        }
                        scan.restartsLeft -= 1
                    }
                    // Out of data, the MCU is left as it is (a DC refinement reads its zero bits anyway).
                    if scan.insufficient && !refinesDC { continue }
                    for i in 0..<count {
                        let c = components[i]
                        let (h, v) = interleaved ? (c.h, c.v) : (1, 1)
                        for by in 0..<v {
                            for bx in 0..<h {
                                let x = column * h + bx, y = row * v + by
                                // `coefficients` is set for every component of a progressive scan.
                                let block = c.coefficients.unsafelyUnwrapped + (y * c.blocksPerLine + x) * 64
                                if sequential {
                                    let decoded = decodeSequentialBand(reader, bytes, c, predictors[i], block, scratch, zigzag)
                                    reader = decoded.reader
                                    predictors[i] = decoded.predictor
                                } else if header.ss == 0 {
                                    if header.ah == 0 {
                                        var predictor = predictors[i]
                                        let ok = decodeDCFirst(&reader, bytes, c.dcTable, header.al, &predictor, block)
                                        predictors[i] = predictor
                                        if !ok { return .coefficientOverflow }
                                    } else {
                                        if reader.bit(bytes) != 0 {
                                            block[0] |= Int16(truncatingIfNeeded: 1 << header.al)
                                        }
                                    }
                                } else if header.ah == 0 {
                                    decodeACFirst(&reader, bytes, c.acTable, header, &eobRun, block, zigzag)
                                } else {
                                    decodeACRefine(&reader, bytes, c.acTable, header, &eobRun, block, zigzag)
                                }
                            }
                        }
                    }
                    if reader.count < reader.padded && !scan.insufficient { markInsufficient(&scan, reader) }
                }
            }
            return .decoded
        }
    }

    /// A block of a sequential scan stored with the coefficients (a sequential frame of
    /// several scans): the whole band into a cleared block, then over the stored one as
    /// libjpeg writes it, DC always and AC where a value was decoded. Out of line and by
    /// value: inlined, the sequential decoder's block loop cost the progressive scans'
    /// loop its registers (callgrind: 4 % more instructions on a progressive decode).
    @inline(never)
    static func decodeSequentialBand(_ reader: JPEG.BitReader, _ bytes: UnsafeBufferPointer<UInt8>, _ c: JPEG.ScanComponent,
                                     _ predictor: Int32, _ block: UnsafeMutablePointer<Int16>,
                                     _ scratch: UnsafeMutablePointer<Int16>, _ zigzag: UnsafePointer<Int>)
        -> (reader: JPEG.BitReader, predictor: Int32) {
        var reader = reader, predictor = predictor
        _ = decodeBlock(&reader, bytes: bytes, final: true, dcTable: c.dcTable, acTable: c.acTable,
                        predictor: &predictor, block: scratch, zigzag: zigzag)
        block[0] = scratch[0]
        for k in 1..<64 where scratch[k] != 0 { block[k] = scratch[k] }
        scratch.update(repeating: 0, count: 64)
        return (reader, predictor)
    }

    @inline(__always)
    static func decodeDCFirst(_ reader: inout JPEG.BitReader, _ bytes: UnsafeBufferPointer<UInt8>,
                              _ table: UnsafePointer<Int32>, _ al: Int, _ predictor: inout Int32,
                              _ block: UnsafeMutablePointer<Int16>) -> Bool {
        if reader.count < 32 { reader.refill(bytes, final: true) }
        let s = symbol(&reader, table)
        let diff = magnitude(&reader, s)
        // libjpeg fails (JERR_BAD_DCT_COEF) rather than let a progressive DC predictor overflow.
        let sum = Int(predictor) &+ diff
        guard let next = Int32(exactly: sum) else { return false }
        predictor = next
        block[0] = Int16(truncatingIfNeeded: Int(predictor) &<< al)
        return true
    }

    /// First pass over a band of AC coefficients (T.81 §G.1.2.2), with end-of-band runs.
    @inline(__always)
    static func decodeACFirst(_ reader: inout JPEG.BitReader, _ bytes: UnsafeBufferPointer<UInt8>,
                              _ table: UnsafePointer<Int32>, _ header: JPEG.ScanHeader, _ eobRun: inout Int,
                              _ block: UnsafeMutablePointer<Int16>, _ zigzag: UnsafePointer<Int>) {
        if eobRun > 0 {
            eobRun -= 1
            return
        }
        var k = header.ss
        let end = header.se, al = header.al
        while k <= end {
            // Code (≤ 16 bits) plus magnitude or run length (≤ 15 bits) fit one refill.
            if reader.count < 32 { reader.refill(bytes, final: true) }
            let rs = symbol(&reader, table)
            let r = rs >> 4, s = rs & 15
            if s != 0 {
                k += r
                block[zigzag[k]] = Int16(truncatingIfNeeded: magnitude(&reader, s) &<< al)
            } else if r == 15 {
                k += 15
            } else {
                eobRun = 1 << r
                if r != 0 {
                    eobRun += Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 &- r))
                    reader.consume(r)
                }
                eobRun -= 1
                break
            }
            k += 1
        }
    }

    /// Refinement pass over a band of AC coefficients (T.81 §G.1.2.3): one
    /// correction bit per coefficient already non-zero, new ±1 coefficients.
    @inline(__always)
    static func decodeACRefine(_ reader: inout JPEG.BitReader, _ bytes: UnsafeBufferPointer<UInt8>,
                               _ table: UnsafePointer<Int32>, _ header: JPEG.ScanHeader, _ eobRun: inout Int,
                               _ block: UnsafeMutablePointer<Int16>, _ zigzag: UnsafePointer<Int>) {
        let p1 = Int16(truncatingIfNeeded: 1 << header.al)
        let m1 = Int16(truncatingIfNeeded: -1 << header.al)
        let end = header.se
        var k = header.ss
        if eobRun == 0 {
            while k <= end {
                if reader.count < 32 { reader.refill(bytes, final: true) }
                let rs = symbol(&reader, table)
                var r = rs >> 4
                let s = rs & 15
                var value: Int16 = 0
                if s != 0 {
                    value = reader.bit(bytes) != 0 ? p1 : m1
                } else if r != 15 {
                    eobRun = 1 << r
                    if r != 0 {
                        eobRun += Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 &- r))
                        reader.consume(r)
                    }
                    break
                }
                repeat {
                    let coefficient = block + zigzag[k]
                    if coefficient.pointee != 0 {
                        if reader.bit(bytes) != 0 && (coefficient.pointee & p1) == 0 {
                            coefficient.pointee = coefficient.pointee >= 0 ? coefficient.pointee &+ p1 : coefficient.pointee &+ m1
                        }
                    } else {
                        r -= 1
                        if r < 0 { break }
                    }
                    k += 1
                } while k <= end
                if value != 0 {
                    block[zigzag[k]] = value
                }
                k += 1
            }
        }
        if eobRun > 0 {
            while k <= end {
                let coefficient = block + zigzag[k]
                if coefficient.pointee != 0 {
                    if reader.bit(bytes) != 0 && (coefficient.pointee & p1) == 0 {
                        coefficient.pointee = coefficient.pointee >= 0 ? coefficient.pointee &+ p1 : coefficient.pointee &+ m1
                    }
                }
                k += 1
            }
            eobRun -= 1
        }
    }
}
