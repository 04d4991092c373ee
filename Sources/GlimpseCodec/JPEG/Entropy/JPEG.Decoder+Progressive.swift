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
        // A component stored DC-only has nowhere to put AC coefficients: its AC scans are
        // skipped even when cut short (only a file fed in pieces, one of which ended in an
        // FF D9 that was no EOI, gets there: see `startScan`).
        let storesDCOnly = header.ss > 0 && header.components.contains { layout.components[$0.index].coefficientStride == 1 }
        if storesDCOnly || (found && options.skipsUnusedScans && header.ss > 0 && frame?.progressive == true),
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
        // Set with the layout at the first scan, for every frame whose scans come here.
        guard var coefficients = self.coefficients else {
            position = p
            self.scan = nil
            phase = .markers
            return true
        }
        self.coefficients = nil
        let coefficientBase = JPEG.CoefficientBuffer.uniqueForWriting(&coefficients)
        var step = JPEG.ScanStep.decoded
        let components = UnsafeMutablePointer<JPEG.ScanComponent>.allocate(capacity: 4)
        defer { components.deallocate() }
        input.withUnsafeBufferPointer { bytes in
            huffman.storage.withUnsafeBufferPointer { tables in
                componentQuant.withUnsafeBufferPointer { quant in
                    // Sized from `layout` at the first scan; offsets come from the same layout.
                    guard let tableBase = tables.baseAddress,
                          let quantBase = quant.baseAddress else { return }
                    for (i, sc) in header.components.enumerated() {
                        let c = layout.components[sc.index]
                        components[i] = JPEG.ScanComponent(
                            index: sc.index, h: c.h, v: c.v, blockSize: c.blockSize, blocksPerLine: c.blocksPerLine,
                            scanBlocksX: c.scanBlocksX, scanBlocksY: c.scanBlocksY, planeStride: c.planeStride, ringRows: c.ringRows,
                            plane: nil, coefficients: coefficientBase + c.coefficientOffset,
                            coefficientStride: c.coefficientStride,
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
        // A local copy lives in registers; the scan state is written back on exit.
        var reader = scan.reader
        defer { scan.reader = reader }
        return JPEG.naturalOrder.withUnsafeBufferPointer { naturalBuffer -> JPEG.ScanStep in
            // 80 entries: every index below is at most 63 + 16.
            let zigzag = naturalBuffer.baseAddress.unsafelyUnwrapped
            let ok: Bool
            if sequential {
                let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: 64)
                scratch.initialize(repeating: 0, count: 64)
                defer { scratch.deallocate() }
                var band = JPEG.SequentialBand(scratch: scratch, zigzag: zigzag)
                ok = decodeBlocks(&band, &scan, &reader, bytes: bytes, components: components, count: count,
                                  layout: layout, restartInterval: restartInterval)
            } else if header.ss == 0 {
                if header.ah == 0 {
                    var band = JPEG.DCFirstBand(al: header.al)
                    ok = decodeBlocks(&band, &scan, &reader, bytes: bytes, components: components, count: count,
                                      layout: layout, restartInterval: restartInterval)
                } else {
                    var band = JPEG.DCRefineBand(al: header.al)
                    ok = decodeBlocks(&band, &scan, &reader, bytes: bytes, components: components, count: count,
                                      layout: layout, restartInterval: restartInterval)
                }
            } else if header.ah == 0 {
                var band = JPEG.ACFirstBand(header: header, table: components[0].acTable, zigzag: zigzag)
                ok = decodeBlocks(&band, &scan, &reader, bytes: bytes, components: components, count: count,
                                  layout: layout, restartInterval: restartInterval)
            } else {
                var band = JPEG.ACRefineBand(header: header, table: components[0].acTable, zigzag: zigzag)
                ok = decodeBlocks(&band, &scan, &reader, bytes: bytes, components: components, count: count,
                                  layout: layout, restartInterval: restartInterval)
            }
            return ok ? .decoded : .coefficientOverflow
        }
    }

    /// The MCU loop of a scan kept in the coefficient store, with libjpeg's
    /// restart and out-of-data bookkeeping (jdcoefct.c `consume_data`, jdphuff.c).
    /// Returns `false` when a DC predictor overflowed.
    @inline(__always)
    static func decodeBlocks<Band: JPEG.ProgressiveBand>(
        _ band: inout Band, _ scan: inout ScanState, _ reader: inout JPEG.BitReader, bytes: UnsafeBufferPointer<UInt8>,
        components: UnsafeMutablePointer<JPEG.ScanComponent>, count: Int, layout: JPEG.Layout, restartInterval: Int
    ) -> Bool {
        // Plain locals (registers) for what every MCU touches; `scan` is synchronised
        // around the rare restart and out-of-data events.
        var insufficient = scan.insufficient
        var lastGoodRow = scan.lastGoodRow
        // Without restarts the countdown never reaches zero.
        var restartsLeft = restartInterval > 0 ? scan.restartsLeft : Int.max
        defer {
            scan.insufficient = insufficient
            scan.lastGoodRow = lastGoodRow
            if restartInterval > 0 { scan.restartsLeft = restartsLeft }
        }
        /// libjpeg's per-MCU steps around the blocks; `false`: skip the MCU's blocks.
        @inline(__always)
        func startMCU(_ iMCURow: Int) -> Bool {
            // libjpeg notes the row before the MCU's restart processing (jdcoefct.c consume_data).
            if !insufficient { lastGoodRow = iMCURow }
            if restartsLeft == 0 {
                scan.insufficient = insufficient
                _ = restart(&scan, &reader, bytes: bytes, final: true)
                insufficient = scan.insufficient
                band.restart()
                restartsLeft = restartInterval
            }
            restartsLeft &-= 1
            // Out of data, the MCU is left as it is (a DC refinement reads its zero bits anyway).
            return !insufficient || Band.decodesWhenInsufficient
        }
        @inline(__always)
        func endMCU() {
            if !insufficient && reader.count < reader.padded {
                insufficient = true
                markInsufficient(&scan, atEndOfFile: reader.paddedAtEOF)
            }
        }
        if count == 1 {
            // One component: its blocks in raster order, libjpeg's iMCU row every `v` block rows.
            let c = components[0]
            // `coefficients` is set for every component of a scan kept in the store.
            let base = c.coefficients.unsafelyUnwrapped
            for row in 0..<c.scanBlocksY {
                let iMCURow = row / c.v
                let stride = c.coefficientStride
                var block = base + row * c.blocksPerLine * stride
                for _ in 0..<c.scanBlocksX {
                    if startMCU(iMCURow) {
                        guard band.decode(&reader, bytes, index: 0, c, block) else { return false }
                        endMCU()
                    }
                    block += stride
                }
            }
            return true
        }
        for row in 0..<layout.mcusY {
            for column in 0..<layout.mcusX {
                guard startMCU(row) else { continue }
                for i in 0..<count {
                    let c = components[i]
                    let stride = c.coefficientStride
                    var block = c.coefficients.unsafelyUnwrapped + (row * c.v * c.blocksPerLine + column * c.h) * stride
                    for _ in 0..<c.v {
                        for bx in 0..<c.h {
                            guard band.decode(&reader, bytes, index: i, c, block + bx * stride) else { return false }
                        }
                        block += c.blocksPerLine * stride
                    }
                }
                endMCU()
            }
        }
        return true
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
