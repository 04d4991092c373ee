extension JPEG {
    /// Entropy-codes the blocks of one scan into an ``EntropySink``, as
    /// libjpeg-turbo's `jchuff.c` (sequential) and `jcphuff.c` (progressive)
    /// do: MCU order (T.81 §A.2), restart intervals, DC prediction, and for
    /// progressive scans the EOB runs and the buffering of correction bits
    /// (§G.1.2), so that the counts and the bits equal libjpeg's.
    struct ScanCoder<Sink: EntropySink & Sendable>: Sendable {
        var sink: Sink
        let layout: EncodingLayout
        let scan: ScanSpec
        /// MCUs per row of this scan (interleaved: the frame's; one component: its blocks).
        let mcusPerRow: Int
        let restartInterval: Int
        private var restartsToGo: Int
        private var nextRestart = 0
        /// Per scan component (at most four, T.81 §B.2.3).
        private var lastDC = SIMD4<Int32>()
        private var eobRun = 0
        /// Correction bits waiting for the pending EOB run (libjpeg's `BE`).
        private var correctionBits: [UInt8]
        private var bufferedCount = 0

        /// Zig-zag → natural order (80 entries, all < 64), kept for the life of
        /// the process so the coders index it without array checks.
        static var order: UnsafePointer<Int> { JPEG.naturalOrderPointer }

        /// libjpeg's `MAX_CORR_BITS`.
        static var maxCorrectionBits: Int { 1000 }

        init(sink: Sink, layout: EncodingLayout, scan: ScanSpec, restartRows: Int) {
            self.sink = sink
            self.layout = layout
            self.scan = scan
            mcusPerRow = scan.components.count > 1 ? layout.mcusPerRow : layout.components[scan.components[0]].widthInBlocks
            restartInterval = restartRows > 0 ? min(restartRows &* mcusPerRow, 65535) : 0
            restartsToGo = restartInterval
            correctionBits = [UInt8](repeating: 0, count: Self.maxCorrectionBits)
        }

        /// Rows of MCUs in this scan.
        var mcuRowCount: Int {
            scan.components.count > 1 ? layout.mcuRows : layout.components[scan.components[0]].heightInBlocks
        }

        /// Where one block of an MCU sits in the ``CoefficientStore``.
        private struct BlockPlace {
            /// From the start of the store to the block in MCU row 0, column 0.
            var offset: Int
            /// From one MCU column (row) to the next.
            var columnStep: Int
            var rowStep: Int
            /// DC predictor slot within the scan, Huffman table (0 luma, 1 chroma).
            var slot: Int
            var table: Int
        }

        /// Codes MCU rows `rows` whose blocks are in `store` starting at store
        /// MCU row (interleaved) or block row (one component) `rows.lowerBound − storeOffset`.
        mutating func encode(rows: Range<Int>, store: CoefficientStore, storeOffset: Int = 0) {
            var places: [BlockPlace] = []
            if scan.components.count > 1 {
                for (slot, c) in scan.components.enumerated() {
                    let component = layout.components[c]
                    let h = component.horizontalSampling, v = component.verticalSampling
                    let perRow = component.paddedBlocksPerRow
                    for by in 0..<v {
                        for bx in 0..<h {
                            places.append(BlockPlace(offset: store.offsets[c] + (by * perRow + bx) * 64, columnStep: h * 64,
                                                     rowStep: v * perRow * 64, slot: slot, table: component.table))
                        }
                    }
                }
            } else {
                let c = scan.components[0]
                let component = layout.components[c]
                places.append(BlockPlace(offset: store.offsets[c], columnStep: 64, rowStep: component.paddedBlocksPerRow * 64,
                                         slot: 0, table: component.table))
            }
            store.coefficients.withUnsafeBufferPointer { all in
                places.withUnsafeBufferPointer { places in
                    // Every block addressed lies in the store: MCU rows (block rows) rows − storeOffset are
                    // held, MCU columns < mcusPerRow ≤ padded blocks per row / h.
                    let base = all.baseAddress.unsafelyUnwrapped
                    for mcuRow in rows {
                        let row = mcuRow &- storeOffset
                        for mcuColumn in 0..<mcusPerRow {
                            startMCU()
                            for place in places {
                                let block = base + (place.offset &+ row &* place.rowStep &+ mcuColumn &* place.columnStep)
                                encodeBlock(block, slot: place.slot, table: place.table)
                            }
                            finishMCU()
                        }
                    }
                }
            }
        }

        /// Pending EOB run and the last partial byte (libjpeg's `finish_pass`).
        mutating func finish() {
            emitEOBRun()
            sink.finishScan()
        }

        @inline(__always)
        private mutating func startMCU() {
            guard restartInterval > 0, restartsToGo == 0 else { return }
            emitEOBRun()
            sink.restart(nextRestart)
            if scan.spectralStart == 0 {
                lastDC = SIMD4<Int32>()
            } else {
                eobRun = 0
                bufferedCount = 0
            }
        }

        @inline(__always)
        private mutating func finishMCU() {
            guard restartInterval > 0 else { return }
            if restartsToGo == 0 {
                restartsToGo = restartInterval
                nextRestart = (nextRestart &+ 1) & 7
            }
            restartsToGo &-= 1
        }

        @inline(__always)
        private static func bitLength(_ value: Int32) -> Int {
            32 &- Int(UInt32(bitPattern: value).leadingZeroBitCount)
        }

        @inline(__always)
        private mutating func encodeBlock(_ block: UnsafePointer<Int16>, slot: Int, table: Int) {
            let sequential = scan.spectralStart == 0 && scan.spectralEnd == 63
            if sequential {
                encodeDC(Int32(block[0]), slot: slot, table: table)
                encodeSequentialAC(block, table: table)
            } else if scan.spectralStart == 0 {
                if scan.approximationHigh == 0 {
                    encodeDC(Int32(block[0]) &>> Int32(scan.approximationLow), slot: slot, table: table)
                } else {
                    sink.emitBits(UInt32(truncatingIfNeeded: Int32(block[0]) &>> Int32(scan.approximationLow)) & 1, 1)
                }
            } else if scan.approximationHigh == 0 {
                encodeACFirst(block, table: table, sequential: false)
            } else {
                encodeACRefine(block, table: table)
            }
        }

        /// DC difference: size category, then its bits (T.81 §F.1.2.1).
        @inline(__always)
        private mutating func encodeDC(_ value: Int32, slot: Int, table: Int) {
            let diff = value &- lastDC[slot]
            lastDC[slot] = value
            let magnitude = diff < 0 ? 0 &- diff : diff
            let size = Self.bitLength(magnitude)
            sink.emit(size, table: table, bits: UInt32(bitPattern: diff < 0 ? diff &- 1 : diff), count: size)
        }

        /// A sequential block's AC coefficients (§F.1.2.2): gathered in zig-zag
        /// order eight at a time, the non-zero ones found through a bit mask so
        /// that zero runs cost no branches; ZRL for runs over 15, EOB after the
        /// last non-zero.
        @inline(__always)
        private mutating func encodeSequentialAC(_ block: UnsafePointer<Int16>, table: Int) {
            let acTable = 2 &+ table
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { zigZag in
                let values = zigZag.baseAddress.unsafelyUnwrapped
                // Bit 0 is the DC coefficient.
                var mask = Self.zigZag(block, into: values) & ~1
                var last = 0
                while mask != 0 {
                    let k = mask.trailingZeroBitCount
                    mask &= mask &- 1
                    var run = k &- last &- 1
                    last = k
                    while run > 15 {
                        sink.emit(0xF0, table: acTable)
                        run &-= 16
                    }
                    let value = Int32(values[k])
                    let sign = value &>> 31
                    let size = Self.bitLength((value ^ sign) &- sign)
                    sink.emit((run &<< 4) &+ size, table: acTable, bits: UInt32(bitPattern: value &+ sign), count: size)
                }
                if last != 63 { sink.emit(0, table: acTable) }
            }
        }

        /// Copies the 64 coefficients of `block` (natural order) into `zigZag`
        /// in zig-zag order (T.81 figure A.6) and returns the mask of the
        /// non-zero ones, bit k for zig-zag index k.
        @inline(__always)
        static func zigZag(_ block: UnsafePointer<Int16>, into zigZag: UnsafeMutablePointer<Int16>) -> UInt64 {
            typealias Row = SIMD8<Int16>
            // Constant indices < 64 into the 64-value block: LLVM loads them straight into lanes.
            let b = block
            let v0 = Row(b[0], b[1], b[8], b[16], b[9], b[2], b[3], b[10])
            let v1 = Row(b[17], b[24], b[32], b[25], b[18], b[11], b[4], b[5])
            let v2 = Row(b[12], b[19], b[26], b[33], b[40], b[48], b[41], b[34])
            let v3 = Row(b[27], b[20], b[13], b[6], b[7], b[14], b[21], b[28])
            let v4 = Row(b[35], b[42], b[49], b[56], b[57], b[50], b[43], b[36])
            let v5 = Row(b[29], b[22], b[15], b[23], b[30], b[37], b[44], b[51])
            let v6 = Row(b[58], b[59], b[52], b[45], b[38], b[31], b[39], b[46])
            let v7 = Row(b[53], b[60], b[61], b[54], b[47], b[55], b[62], b[63])
            // `zigZag` holds 64 values: vector i is bytes 16i ..< 16i + 16.
            let out = UnsafeMutableRawPointer(zigZag)
            out.storeBytes(of: v0, toByteOffset: 0, as: Row.self)
            out.storeBytes(of: v1, toByteOffset: 16, as: Row.self)
            out.storeBytes(of: v2, toByteOffset: 32, as: Row.self)
            out.storeBytes(of: v3, toByteOffset: 48, as: Row.self)
            out.storeBytes(of: v4, toByteOffset: 64, as: Row.self)
            out.storeBytes(of: v5, toByteOffset: 80, as: Row.self)
            out.storeBytes(of: v6, toByteOffset: 96, as: Row.self)
            out.storeBytes(of: v7, toByteOffset: 112, as: Row.self)
            return nonZeroBits(v0, v1) | nonZeroBits(v2, v3) &<< 16 | nonZeroBits(v4, v5) &<< 32 | nonZeroBits(v6, v7) &<< 48
        }

        /// Bit i set for each non-zero lane i of `a`, bit 8 + i for `b`.
        @inline(__always)
        static func nonZeroBits(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> UInt64 {
            let low = SIMD8<UInt16>(1, 2, 4, 8, 16, 32, 64, 128)
            let none = SIMD8<UInt16>()
            let bits = none.replacing(with: low, where: a .!= SIMD8<Int16>())
                | none.replacing(with: low &<< 8, where: b .!= SIMD8<Int16>())
            return UInt64(bits.wrappedSum())
        }

        /// AC coefficients of the band as run/size symbols (§F.1.2.2; §G.1.2.2
        /// with EOB runs for a progressive first scan).
        @inline(__always)
        private mutating func encodeACFirst(_ block: UnsafePointer<Int16>, table: Int, sequential: Bool) {
            let acTable = 2 &+ table
            let al = Int32(scan.approximationLow)
            let start = sequential ? 1 : scan.spectralStart, end = sequential ? 63 : scan.spectralEnd
            var run = 0
            var emittedRun = sequential
            let order = Self.order
            for k in start...end {
                let coefficient = Int32(block[order[k]])
                if coefficient == 0 { run &+= 1; continue }
                let magnitude = (coefficient < 0 ? 0 &- coefficient : coefficient) &>> al
                if magnitude == 0 { run &+= 1; continue }
                if !emittedRun {
                    emitEOBRun()
                    emittedRun = true
                }
                while run > 15 {
                    sink.emit(0xF0, table: acTable)
                    run &-= 16
                }
                let size = Self.bitLength(magnitude)
                sink.emit((run &<< 4) &+ size, table: acTable)
                sink.emitBits(UInt32(bitPattern: coefficient < 0 ? ~magnitude : magnitude), size)
                run = 0
            }
            if run > 0 {
                if sequential {
                    sink.emit(0, table: acTable)
                } else {
                    eobRun &+= 1
                    if eobRun == 0x7FFF { emitEOBRun() }
                }
            }
        }

        /// Successive-approximation refinement of the band (§G.1.2.3): one new
        /// bit for coefficients already non-zero, buffered until the next symbol;
        /// newly non-zero ones coded with their sign.
        private mutating func encodeACRefine(_ block: UnsafePointer<Int16>, table: Int) {
            let acTable = 2 &+ table
            let al = Int32(scan.approximationLow)
            let start = scan.spectralStart, end = scan.spectralEnd
            var lastNewlyOne = -1
            let order = Self.order
            for k in start...end {
                let c = Int32(block[order[k]])
                if ((c < 0 ? 0 &- c : c) &>> al) == 1 { lastNewlyOne = k }
            }
            var run = 0
            var pendingStart = bufferedCount
            var pending = 0
            for k in start...end {
                let c = Int32(block[order[k]])
                let magnitude = (c < 0 ? 0 &- c : c) &>> al
                if magnitude == 0 { run &+= 1; continue }
                while run > 15 && k <= lastNewlyOne {
                    emitEOBRun()
                    sink.emit(0xF0, table: acTable)
                    run &-= 16
                    emitBuffered(from: pendingStart, count: pending)
                    pendingStart = 0
                    pending = 0
                }
                if magnitude > 1 {
                    correctionBits[pendingStart &+ pending] = UInt8(truncatingIfNeeded: magnitude & 1)
                    pending &+= 1
                    continue
                }
                emitEOBRun()
                sink.emit((run &<< 4) &+ 1, table: acTable)
                sink.emitBits(c < 0 ? 0 : 1, 1)
                emitBuffered(from: pendingStart, count: pending)
                pendingStart = 0
                pending = 0
                run = 0
            }
            if run > 0 || pending > 0 {
                eobRun &+= 1
                bufferedCount &+= pending
                if eobRun == 0x7FFF || bufferedCount > Self.maxCorrectionBits &- 64 &+ 1 { emitEOBRun() }
            }
        }

        @inline(__always)
        private mutating func emitBuffered(from start: Int, count: Int) {
            for i in 0..<count { sink.emitBits(UInt32(correctionBits[start &+ i]), 1) }
        }

        /// The pending EOB run (EOBn symbol and its extra bits, §G.1.2.2) and its
        /// buffered correction bits.
        private mutating func emitEOBRun() {
            guard eobRun > 0 else { return }
            let size = Self.bitLength(Int32(eobRun)) &- 1
            sink.emit(size &<< 4, table: 2 &+ layout.components[scan.components[0]].table)
            if size > 0 { sink.emitBits(UInt32(eobRun), size) }
            eobRun = 0
            emitBuffered(from: 0, count: bufferedCount)
            bufferedCount = 0
        }
    }
}
