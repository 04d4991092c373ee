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
                store.acZero.withUnsafeBufferPointer { flags in
                    places.withUnsafeBufferPointer { places in
                        // Every block addressed lies in the store: MCU rows (block rows) rows − storeOffset are
                        // held, MCU columns < mcusPerRow ≤ padded blocks per row / h; its flag is at its index.
                        let base = all.baseAddress.unsafelyUnwrapped, flags = flags.baseAddress.unsafelyUnwrapped
                        for mcuRow in rows {
                            let row = mcuRow &- storeOffset
                            for mcuColumn in 0..<mcusPerRow {
                                startMCU()
                                for place in places {
                                    let index = place.offset &+ row &* place.rowStep &+ mcuColumn &* place.columnStep
                                    encodeBlock(base + index, acZero: flags[index &>> 6], slot: place.slot, table: place.table)
                                }
                                finishMCU()
                            }
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
        private mutating func encodeBlock(_ block: UnsafePointer<Int16>, acZero: Bool, slot: Int, table: Int) {
            let sequential = scan.spectralStart == 0 && scan.spectralEnd == 63
            if sequential {
                // The bit buffer stays in a local for the block (in registers).
                var pending = sink.beginBlock()
                let value = Int32(block[0])
                let diff = value &- lastDC[slot]
                lastDC[slot] = value
                let magnitude = diff < 0 ? 0 &- diff : diff
                let size = Self.bitLength(magnitude)
                sink.emit(size, table: table, bits: UInt32(bitPattern: diff < 0 ? diff &- 1 : diff), count: size, into: &pending)
                if acZero {
                    // Blocks of smooth areas have no AC at all: EOB alone.
                    sink.emit(0, table: 2 &+ table, into: &pending)
                } else {
                    encodeSequentialAC(block, table: table, into: &pending)
                }
                sink.endBlock(pending)
            } else if scan.spectralStart == 0 {
                if scan.approximationHigh == 0 {
                    encodeDC(Int32(block[0]) &>> Int32(scan.approximationLow), slot: slot, table: table)
                } else {
                    sink.emitBits(UInt32(truncatingIfNeeded: Int32(block[0]) &>> Int32(scan.approximationLow)) & 1, 1)
                }
            } else if scan.approximationHigh == 0 {
                encodeACFirst(block, table: table)
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

        /// A sequential block's AC coefficients (§F.1.2.2; the block is in
        /// zig-zag order): the non-zero ones found through a bit mask so that
        /// zero runs cost no branches; ZRL for runs over 15, EOB after the last
        /// non-zero.
        @inline(__always)
        private mutating func encodeSequentialAC(_ block: UnsafePointer<Int16>, table: Int, into pending: inout BitWriter.Pending) {
            let acTable = 2 &+ table
            // Bit 0 is the DC coefficient.
            var mask = ZigZag.nonZeroMask(block) & ~1
            var last = 0
            while mask != 0 {
                let k = mask.trailingZeroBitCount
                mask &= mask &- 1
                var run = k &- last &- 1
                last = k
                while run > 15 {
                    sink.emit(0xF0, table: acTable, into: &pending)
                    run &-= 16
                }
                // k < 64: the block holds 64 coefficients.
                let value = Int32(block[k])
                let sign = value &>> 31
                let size = Self.bitLength((value ^ sign) &- sign)
                sink.emit((run &<< 4) &+ size, table: acTable, bits: UInt32(bitPattern: value &+ sign), count: size, into: &pending)
            }
            if last != 63 { sink.emit(0, table: acTable, into: &pending) }
        }

        /// The band's coefficients (zig-zag indices `spectralStart…spectralEnd`
        /// of the zig-zag ordered `block`) as magnitudes shifted right by Al into `magnitudes`,
        /// with masks (bit k for zig-zag index k, band only) of the non-zero
        /// magnitudes, of those equal to one, and of the negative coefficients
        /// (libjpeg-turbo's `encode_mcu_AC_*_prepare`).
        @inline(__always)
        private func prepareBand(_ block: UnsafePointer<Int16>, into magnitudes: UnsafeMutablePointer<Int16>)
            -> (nonZero: UInt64, ones: UInt64, negative: UInt64) {
            typealias Row = SIMD8<Int16>
            // `block` and `magnitudes` hold 64 values each (zig-zag order).
            let source = UnsafeRawPointer(block), raw = UnsafeMutableRawPointer(magnitudes)
            let al = Row(repeating: Int16(truncatingIfNeeded: scan.approximationLow))
            var nonZero: UInt64 = 0, ones: UInt64 = 0, negative: UInt64 = 0
            for pair in 0..<4 {
                let offset = pair &* 32
                let a = source.loadUnaligned(fromByteOffset: offset, as: Row.self)
                let b = source.loadUnaligned(fromByteOffset: offset &+ 16, as: Row.self)
                let signA = a &>> 15, signB = b &>> 15
                let magnitudeA = ((a ^ signA) &- signA) &>> al, magnitudeB = ((b ^ signB) &- signB) &>> al
                raw.storeBytes(of: magnitudeA, toByteOffset: offset, as: Row.self)
                raw.storeBytes(of: magnitudeB, toByteOffset: offset &+ 16, as: Row.self)
                let shift = UInt64(pair &* 16)
                nonZero |= ZigZag.maskBits(magnitudeA .!= Row(), magnitudeB .!= Row()) &<< shift
                ones |= ZigZag.maskBits(magnitudeA .== Row(repeating: 1), magnitudeB .== Row(repeating: 1)) &<< shift
                negative |= ZigZag.maskBits(a .< Row(), b .< Row()) &<< shift
            }
            let band = (~UInt64(0) &<< UInt64(scan.spectralStart)) & (~UInt64(0) &>> UInt64(63 &- scan.spectralEnd))
            return (nonZero & band, ones & band, negative)
        }

        /// AC coefficients of the band as run/size symbols with EOB runs, for a
        /// progressive first scan (§G.1.2.2; `jcphuff.c` `encode_mcu_AC_first`).
        @inline(__always)
        private mutating func encodeACFirst(_ block: UnsafePointer<Int16>, table: Int) {
            let acTable = 2 &+ table
            let start = scan.spectralStart, end = scan.spectralEnd
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { buffer in
                let magnitudes = buffer.baseAddress.unsafelyUnwrapped
                let (nonZero, _, negative) = prepareBand(block, into: magnitudes)
                var mask = nonZero
                var last = start &- 1
                if mask != 0 { emitEOBRun() }
                while mask != 0 {
                    let k = mask.trailingZeroBitCount
                    mask &= mask &- 1
                    var run = k &- last &- 1
                    last = k
                    while run > 15 {
                        sink.emit(0xF0, table: acTable)
                        run &-= 16
                    }
                    let magnitude = Int32(magnitudes[k])
                    let size = Self.bitLength(magnitude)
                    // A negative coefficient sends the complement of its magnitude.
                    let bits = (negative &>> UInt64(k)) & 1 != 0 ? ~magnitude : magnitude
                    sink.emit((run &<< 4) &+ size, table: acTable, bits: UInt32(bitPattern: bits), count: size)
                }
                if last < end {
                    eobRun &+= 1
                    if eobRun == 0x7FFF { emitEOBRun() }
                }
            }
        }

        /// Successive-approximation refinement of the band (§G.1.2.3;
        /// `jcphuff.c` `encode_mcu_AC_refine`): one new bit for coefficients
        /// already non-zero, buffered until the next symbol; newly non-zero
        /// ones coded with their sign. Walks the non-zero magnitudes by mask.
        private mutating func encodeACRefine(_ block: UnsafePointer<Int16>, table: Int) {
            let acTable = 2 &+ table
            let start = scan.spectralStart, end = scan.spectralEnd
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: 64) { buffer in
                let magnitudes = buffer.baseAddress.unsafelyUnwrapped
                let (nonZero, ones, negative) = prepareBand(block, into: magnitudes)
                // The last newly non-zero coefficient (libjpeg's EOB position); −1 when none.
                let lastNewlyOne = 63 &- ones.leadingZeroBitCount
                var mask = nonZero
                var run = 0
                var previous = start &- 1
                var pendingStart = bufferedCount
                var pending = 0
                while mask != 0 {
                    let k = mask.trailingZeroBitCount
                    mask &= mask &- 1
                    run &+= k &- previous &- 1
                    previous = k
                    while run > 15 && k <= lastNewlyOne {
                        emitEOBRun()
                        sink.emit(0xF0, table: acTable)
                        run &-= 16
                        emitBuffered(from: pendingStart, count: pending)
                        pendingStart = 0
                        pending = 0
                    }
                    let magnitude = magnitudes[k]
                    if magnitude > 1 {
                        // pendingStart + pending < bufferedCount + 64 ≤ maxCorrectionBits (flushed past 937).
                        correctionBits[pendingStart &+ pending] = UInt8(truncatingIfNeeded: magnitude & 1)
                        pending &+= 1
                        continue
                    }
                    emitEOBRun()
                    sink.emit((run &<< 4) &+ 1, table: acTable)
                    sink.emitBits((negative &>> UInt64(k)) & 1 != 0 ? 0 : 1, 1)
                    emitBuffered(from: pendingStart, count: pending)
                    pendingStart = 0
                    pending = 0
                    run = 0
                }
                run &+= end &- previous
                if run > 0 || pending > 0 {
                    eobRun &+= 1
                    bufferedCount &+= pending
                    if eobRun == 0x7FFF || bufferedCount > Self.maxCorrectionBits &- 64 &+ 1 { emitEOBRun() }
                }
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
