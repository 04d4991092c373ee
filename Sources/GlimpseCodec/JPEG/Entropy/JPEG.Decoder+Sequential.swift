extension JPEG.Decoder {
    /// Decodes the MCU rows of a sequential scan that the buffered input holds
    /// (T.81 §F.2), transforming each block straight into its plane, and
    /// renders the output rows that became complete. Returns `true` at the end
    /// of the scan, `false` when more input is needed.
    mutating func decodeSequentialScan() throws(ImageDecodingError) -> Bool {
        guard var scan, let layout else { return true }
        let header = scan.header
        let interleaved = header.components.count > 1
        let rows = interleaved ? layout.mcusY : layout.components[header.components[0].index].scanBlocksY
        let final = inputEnded
        var step = JPEG.ScanStep.decoded
        var planes = self.planes
        self.planes = []
        var output = self.output
        self.output = []
        var rendered = rowsRendered
        let transform = self.transform
        let restartInterval = self.restartInterval
        var rowsDone = planeRowsDone
        let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 128)
        let block = UnsafeMutablePointer<Int16>.allocate(capacity: 64)
        block.initialize(repeating: 0, count: 64)
        // libjpeg-turbo's SIMD transform multiplies in 16 bits: a 16-bit table (low halves) gives the same products.
        let quant16 = componentQuant.map { Int16(truncatingIfNeeded: $0) }
        let components = UnsafeMutablePointer<JPEG.ScanComponent>.allocate(capacity: 4)
        let predictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        predictors.initialize(repeating: 0, count: 4)
        let zigzag = UnsafeMutablePointer<Int>.allocate(capacity: JPEG.naturalOrder.count)
        zigzag.initialize(from: JPEG.naturalOrder, count: JPEG.naturalOrder.count)
        defer {
            zigzag.deallocate()
            workspace.deallocate()
            block.deallocate()
            components.deallocate()
            predictors.deallocate()
        }
        input.withUnsafeBufferPointer { bytes in
            output.withUnsafeMutableBufferPointer { outputBuffer in
            planes.withUnsafeMutableBufferPointer { planeBuffer in
                huffman.storage.withUnsafeBufferPointer { tables in
                    componentQuant.withUnsafeBufferPointer { quant in
                    quant16.withUnsafeBufferPointer { quant16 in
                        // The buffers were sized from `layout` at the first scan, and the
                        // offsets below come from the same layout.
                        guard let planeBase = planeBuffer.baseAddress, let tableBase = tables.baseAddress,
                              let quantBase = quant.baseAddress, let quant16Base = quant16.baseAddress,
                              let outputBase = outputBuffer.baseAddress else { return }
                        // Converts the output rows whose plane rows are all decoded, before a ring
                        // plane reuses their rows.
                        func render() {
                            var ready = layout.outputHeight
                            for c in 0..<layout.components.count {
                                ready = min(ready, layout.outputRowsReady(component: c, planeRows: rowsDone[c]))
                            }
                            if ready > rendered {
                                layout.render(rows: rendered..<ready, planes: planeBase, transform: transform, output: outputBase)
                                rendered = ready
                            }
                        }
                        for (i, sc) in header.components.enumerated() {
                            let c = layout.components[sc.index]
                            components[i] = JPEG.ScanComponent(
                                index: sc.index, h: c.h, v: c.v, blockSize: c.blockSize, blocksPerLine: c.blocksPerLine,
                                scanBlocksX: c.scanBlocksX, scanBlocksY: c.scanBlocksY, planeStride: c.planeStride, ringRows: c.ringRows,
                                plane: planeBase + c.planeOffset, coefficients: nil, quant: quantBase + sc.index * 64,
                                quant16: quant16Base + sc.index * 64,
                                dcTable: tableBase + (sc.dcTable & 3) * JPEG.HuffmanTables.stride,
                                acTable: tableBase + (4 + (sc.acTable & 3)) * JPEG.HuffmanTables.stride)
                        }
                        while scan.row < rows {
                            // While input trickles in, wait until about a row's worth has arrived
                            // rather than decoding the same row again for every small chunk.
                            if !final && (bytes.count - scan.reader.position < scan.lastRowBytes + scan.lastRowBytes / 8
                                          || bytes.count < scan.retryAt) {
                                step = .needMoreData
                                break
                            }
                            let checkpoint = scan
                            step = Self.decodeSequentialRow(&scan, bytes: bytes, final: final, components: components,
                                                            count: header.components.count, interleaved: interleaved,
                                                            mcusX: layout.mcusX, restartInterval: restartInterval,
                                                            block: block, workspace: workspace, zigzag: zigzag,
                                                            predictors: predictors)
                            if step == .decoded && scan.reader.hitEnd { step = .needMoreData }
                            if step != .decoded {
                                step = .needMoreData
                                scan = checkpoint
                                scan.retryAt = bytes.count + (bytes.count - checkpoint.reader.position)
                                break
                            }
                            scan.row += 1
                            scan.lastRowBytes = scan.reader.position - checkpoint.reader.position
                            for i in 0..<header.components.count {
                                let c = components[i]
                                rowsDone[c.index] = scan.row * (interleaved ? c.v : 1) * c.blockSize
                            }
                            render()
                        }
                        if step == .decoded {
                            for sc in header.components { rowsDone[sc.index] = layout.components[sc.index].planeHeight }
                            render()
                        }
                    }
                    }
                }
            }
            }
        }
        self.planes = planes
        self.output = output
        rowsRendered = rendered
        planeRowsDone = rowsDone
        if scan.reader.paddedAtEOF { truncated = true }
        let recoveries = scan.recoveries
        scan.recoveries = []
        self.scan = scan
        for recovery in recoveries { try recover(recovery) }
        switch step {
        case .badCode, .coefficientOverflow:
            throw .malformed(.jpeg(.huffmanCode))
        case .needMoreData:
            return false
        case .decoded:
            position = scan.reader.position
            self.scan = nil
            phase = .markers
            return true
        }
    }

    /// Converts the output rows whose planes are complete.
    mutating func renderReadyRows() {
        guard let layout else { return }
        let ready = readyRows(layout: layout)
        guard ready > rowsRendered else { return }
        let range = rowsRendered..<ready
        let transform = self.transform
        planes.withUnsafeBufferPointer { planes in
            output.withUnsafeMutableBufferPointer { out in
                guard let p = planes.baseAddress, let o = out.baseAddress else { return }
                layout.render(rows: range, planes: p, transform: transform, output: o)
            }
        }
        rowsRendered = ready
    }

    /// Decodes one row of MCUs (or of blocks, for a scan of one component).
    static func decodeSequentialRow(_ scan: inout ScanState, bytes: UnsafeBufferPointer<UInt8>, final: Bool,
                                    components: UnsafeMutablePointer<JPEG.ScanComponent>, count: Int,
                                    interleaved: Bool, mcusX: Int, restartInterval: Int,
                                    block: UnsafeMutablePointer<Int16>,
                                    workspace: UnsafeMutablePointer<Int32>, zigzag: UnsafePointer<Int>,
                                    predictors: UnsafeMutablePointer<Int32>) -> JPEG.ScanStep {
        let columns = interleaved ? mcusX : components[0].scanBlocksX
        let row = scan.row
        // A local copy lives in registers; the scan state is written back on every exit.
        var reader = scan.reader
        // The DC predictors live in plain memory while the row is decoded: writing one lane of the
        // `SIMD4` in `scan` by a variable index cost a store-forwarding stall per block.
        for i in 0..<4 { predictors[i] = scan.predictors[i] }
        defer {
            scan.reader = reader
            scan.predictors = SIMD4(predictors[0], predictors[1], predictors[2], predictors[3])
        }
        // First plane row of this block row per component, wrapped into the ring once here
        // rather than with a division per block: a ring holds whole block rows, so the
        // `v` block rows of an MCU never wrap.
        var rowBase = SIMD4<Int>()
        for i in 0..<min(count, 4) {
            let c = components[i]
            var y = row * (interleaved ? c.v : 1) * c.blockSize
            if c.ringRows > 0 { y %= c.ringRows }
            rowBase[i] = y
        }
        for column in 0..<columns {
            if restartInterval > 0 {
                if scan.restartsLeft == 0 {
                    guard restart(&scan, &reader, bytes: bytes, final: final) else { return .needMoreData }
                    predictors.update(repeating: 0, count: 4)
                    scan.restartsLeft = restartInterval
                }
                scan.restartsLeft -= 1
            }
            if scan.insufficient {
                // libjpeg leaves the MCU's coefficients zero once its data ran out: every
                // block is flat mid-grey and the predictors stay as they are.
                for i in 0..<count {
                    let c = components[i]
                    let (h, v) = interleaved ? (c.h, c.v) : (1, 1)
                    let size = c.blockSize
                    let value = JPEG.IDCT.dcOnlyValue(0, c.quant[0], size: size)
                    for by in 0..<v {
                        for bx in 0..<h {
                            let x = (column * h + bx) * size
                            let y = rowBase[i] &+ by &* size
                            JPEG.IDCT.fill(size: size, value, c.plane.unsafelyUnwrapped + y * c.planeStride + x, c.planeStride)
                        }
                    }
                }
                continue
            }
            for i in 0..<count {
                let c = components[i]
                let (h, v) = interleaved ? (c.h, c.v) : (1, 1)
                let size = c.blockSize
                for by in 0..<v {
                    for bx in 0..<h {
                        var predictor = predictors[i]
                        let nonZeroAC = decodeBlock(&reader, bytes: bytes, final: final, dcTable: c.dcTable,
                                                    acTable: c.acTable, predictor: &predictor, block: block, zigzag: zigzag)
                        predictors[i] = predictor
                        // `plane` is set for every component of a sequential scan.
                        let x = (column * h + bx) * size
                        let y = rowBase[i] &+ by &* size
                        let out = c.plane.unsafelyUnwrapped + y * c.planeStride + x
                        if nonZeroAC == 0 {
                            JPEG.IDCT.fill(size: size, JPEG.IDCT.dcOnlyValue(Int32(block[0]), c.quant[0], size: size), out, c.planeStride)
                            block[0] = 0
                        } else {
                            if size == 8 {
                                JPEG.IDCT.islow8x8(block, c.quant16.unsafelyUnwrapped, out, c.planeStride)
                            } else {
                                // Reduced transforms (DCT scaling) work on 32-bit coefficients.
                                for k in 0..<64 { workspace[64 &+ k] = Int32(block[k]) }
                                JPEG.IDCT.transform(size: size, workspace + 64, c.quant, out, c.planeStride, workspace)
                            }
                            block.update(repeating: 0, count: 64)
                        }
                    }
                }
            }
            // Zero bits past the end of the data were consumed: libjpeg finishes this MCU
            // with them and leaves the following ones zero (jdhuff.c `insufficient_data`).
            if reader.count < reader.padded { markInsufficient(&scan, atEndOfFile: reader.paddedAtEOF) }
        }
        // In the row's list, where any chunking puts it (a row is decoded whole or not at all).
        if reader.badCode {
            scan.recoveries.append(.huffmanCode)
            reader.badCode = false
        }
        return .decoded
    }

    /// Decodes one block's coefficients into `block` (zero on entry). Returns
    /// 1 when AC symbols were coded (coefficients or zero runs), 0 for a DC-only block.
    ///
    /// A code is at most 16 bits and its magnitude at most 15, so one refill to
    /// 57+ bits covers a whole symbol: the buffer is checked once per coefficient.
    @inline(__always)
    static func decodeBlock(_ reader: inout JPEG.BitReader, bytes: UnsafeBufferPointer<UInt8>, final: Bool,
                            dcTable: UnsafePointer<Int32>, acTable: UnsafePointer<Int32>,
                            predictor: inout Int32, block: UnsafeMutablePointer<Int16>, zigzag: UnsafePointer<Int>) -> Int {
        if reader.count < 32 { reader.refill(bytes, final: final) }
        let diff: Int
        let fastDC = Int(dcTable[JPEG.HuffmanTables.fastACOffset &+ Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 - JPEG.HuffmanTables.fastACBits))])
        if fastDC != 0 {
            // Code and difference bits in one lookup.
            reader.consume(fastDC & 0xFF)
            diff = fastDC &>> 16
        } else {
            let s = symbol(&reader, dcTable)
            diff = magnitude(&reader, s)
        }
        // libjpeg lets the predictor wrap rather than fail on hostile input.
        predictor = predictor &+ Int32(truncatingIfNeeded: diff)
        // Coefficients are 16-bit in libjpeg (JCOEF).
        block[0] = Int16(truncatingIfNeeded: predictor)
        var k = 1
        let fastAC = acTable + JPEG.HuffmanTables.fastACOffset
        while k < 64 {
            if reader.count < 32 { reader.refill(bytes, final: final) }
            let fast = Int(fastAC[Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 - JPEG.HuffmanTables.fastACBits))])
            if fast != 0 {
                // Code and magnitude bits in one lookup.
                reader.consume(fast & 0xFF)
                k &+= (fast &>> 8) & 0xF
                block[zigzag[k]] = Int16(truncatingIfNeeded: fast &>> 16)
                k &+= 1
                continue
            }
            let rs = symbol(&reader, acTable)
            let r = rs &>> 4, size = rs & 15
            if size != 0 {
                k &+= r
                block[zigzag[k]] = Int16(truncatingIfNeeded: magnitude(&reader, size))
            } else {
                if r != 15 { break }
                k &+= 15
            }
            k &+= 1
        }
        // k moved past 1 only by coded AC symbols: a coefficient, or a zero run (ZRL), which no
        // encoder sends without a coefficient after it. Deriving this from k keeps a flag out of
        // the loop (it lived on the stack and was stored per coefficient).
        return k > 1 ? 1 : 0
    }

    /// One Huffman symbol from a buffer holding at least 17 bits (a bad code reads as 0; see `BitReader.decodeSlow`).
    @inline(__always)
    static func symbol(_ reader: inout JPEG.BitReader, _ table: UnsafePointer<Int32>) -> Int {
        let entry = Int(table[Int(truncatingIfNeeded: reader.buffer &>> 55)])
        if entry != 0 {
            reader.consume(entry &>> 8)
            return entry & 0xFF
        }
        // By value, for the same reason as `BitReader.refill`.
        let (value, next) = slowSymbol(reader, table)
        reader = next
        return value
    }

    @inline(never)
    static func slowSymbol(_ reader: JPEG.BitReader, _ table: UnsafePointer<Int32>) -> (Int, JPEG.BitReader) {
        var reader = reader
        let value = reader.decodeSlow(table)
        return (value, reader)
    }

    /// `size` (0…15) magnitude bits from a buffer holding them, extended to a signed value (F.2.2.1).
    @inline(__always)
    static func magnitude(_ reader: inout JPEG.BitReader, _ size: Int) -> Int {
        if size == 0 { return 0 }
        let value = Int(truncatingIfNeeded: reader.buffer &>> UInt64(64 &- size))
        reader.consume(size)
        return value < (1 &<< (size &- 1)) ? value &- (1 &<< size) &+ 1 : value
    }
}

extension JPEG.Decoder {
    /// Records that the entropy decoder consumed zero bits past its data (once per
    /// run of starved MCUs, as libjpeg warns once).
    /// Out of line, and given a flag rather than the reader: it runs at most once per run of
    /// starved MCUs, and the block loops that call it keep their registers.
    @inline(never)
    static func markInsufficient(_ scan: inout ScanState, atEndOfFile: Bool) {
        scan.insufficient = true
        // Zeros past the end of a complete input are the premature end, reported once by `finish`.
        if !atEndOfFile { scan.recoveries.append(.entropyDataEnded) }
    }

    /// libjpeg's `process_restart`: reads the restart marker (resynchronising if
    /// it is not the expected one), and clears the out-of-data state unless a
    /// marker was left in place. Returns `false` when more input is needed.
    static func restart(_ scan: inout ScanState, _ reader: inout JPEG.BitReader,
                        bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Bool {
        guard let outcome = reader.restart(bytes, final: final, expected: scan.nextRestart) else { return false }
        if let found = outcome.resync, !reader.paddedAtEOF {
            if outcome.skipped > 0 { scan.recoveries.append(.extraneousBytes(count: outcome.skipped, marker: found)) }
            scan.recoveries.append(.restartMarker(found: found, expected: scan.nextRestart))
        } else if outcome.skipped > 0 {
            scan.recoveries.append(.extraneousBytes(count: outcome.skipped, marker: JPEG.Marker.rst0 &+ UInt8(scan.nextRestart)))
        }
        scan.nextRestart = (scan.nextRestart + 1) & 7
        if !reader.atMarker { scan.insufficient = false }
        return true
    }
}
