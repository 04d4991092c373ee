extension JPEG {
    /// A JPEG encoder fed row by row, for callers that produce pixels
    /// progressively (a resampler, a decoder) and never want to hold a large
    /// image twice.
    ///
    /// ## Call sequence
    /// 1. ``init(width:height:pixelFormat:options:metadata:)`` checks the
    ///    options and size and, for a sequential file with standard tables,
    ///    writes the headers.
    /// 2. ``append(row:)`` once per row, top to bottom. A sequential file with
    ///    standard tables is coded one MCU row (8 or 16 pixel rows) at a time;
    ///    its bytes so far can be taken with ``takeBytes()``. Optimised tables
    ///    and progressive scans need every coefficient first: those are kept
    ///    (2 bytes per sample) and coded in ``finish()``.
    /// 3. ``finish()`` returns the remaining bytes, through EOI.
    ///
    /// The bytes equal libjpeg-turbo's (`cjpeg`) for the same 8-bit pixels and
    /// settings; see `README.md` in the JPEG folder.
    public struct RowSink: Sendable {
        private let layout: EncodingLayout
        private let options: EncodingOptions
        private let pixelFormat: PixelFormat
        private let tables: [QuantizationTable]
        private var transformer: BlockTransformer
        private var store: CoefficientStore
        private let streams: Bool
        /// Headers not yet handed out (all output when not streaming).
        private var output: [UInt8] = []
        private var coder: ScanCoder<HuffmanWriter>?
        private var rowInMCU = 0
        private var mcuRow = 0
        private var rowsAppended = 0
        private let metadata: ImageMetadata

        /// Prepares to encode a `width` × `height` image of `pixelFormat` rows.
        ///
        /// - Throws: ``ImageEncodingError/unsupportedSize(width:height:)`` for an
        ///   empty image or one over 65 535 pixels a side (T.81 §B.2.2);
        ///   ``ImageEncodingError/invalidOptions(_:)`` for a quality outside
        ///   1…100 or a negative restart interval.
        public init(width: Int, height: Int, pixelFormat: PixelFormat = .rgba8, options: EncodingOptions = EncodingOptions(),
                    metadata: ImageMetadata = ImageMetadata()) throws(ImageEncodingError) {
            guard (1...0xFFFF).contains(width), (1...0xFFFF).contains(height) else {
                throw .unsupportedSize(width: width, height: height)
            }
            guard (1...100).contains(options.quality) else { throw .invalidOptions("JPEG quality \(options.quality) is not in 1...100") }
            guard options.restartRows >= 0 else { throw .invalidOptions("negative restart interval") }
            self.options = options
            self.pixelFormat = pixelFormat
            self.metadata = metadata
            layout = EncodingLayout(width: width, height: height, subsampling: options.subsampling)
            tables = [QuantizationTable(base: QuantizationTable.annexKLuminance, quality: options.quality),
                      QuantizationTable(base: QuantizationTable.annexKChrominance, quality: options.quality)]
            transformer = BlockTransformer(layout: layout, tables: tables, alpha: options.alpha)
            streams = !options.optimizesHuffmanTables && !options.isProgressive
            store = CoefficientStore(layout: layout, mcuRows: streams ? 1 : layout.mcuRows)
            writeFileHeader()
            if streams {
                let scan = ScanSpec.sequential(componentCount: layout.components.count)
                var writer = HuffmanWriter(writer: BitWriter(capacity: 1 << 16))
                let standard = [HuffmanCodeTable.standardLuminanceDC, .standardChrominanceDC,
                                .standardLuminanceAC, .standardChrominanceAC]
                for slot in 0..<4 { writer.setTable(standard[slot], slot: slot) }
                let coder = ScanCoder(sink: writer, layout: layout, scan: scan, restartRows: options.restartRows)
                writeScanHeader(scan, tables: standard, sent: [], restartInterval: coder.restartInterval, lastInterval: 0)
                self.coder = coder
            }
        }

        /// Rows still expected.
        public var remainingRows: Int { layout.height - rowsAppended }

        /// Appends the next row: `width` pixels in the sink's pixel format.
        ///
        /// - Throws: ``ImageEncodingError/invalidImage(_:)`` when the row is too
        ///   short or every row has been given already.
        public mutating func append(row: UnsafeRawBufferPointer) throws(ImageEncodingError) {
            guard rowsAppended < layout.height else { throw .invalidImage("more rows than the image height") }
            guard row.count >= layout.width * pixelFormat.bytesPerPixel else { throw .invalidImage("short row") }
            transformer.convertRow(rowInMCU, pixels: row, format: pixelFormat)
            rowInMCU += 1
            rowsAppended += 1
            if rowInMCU == layout.mcuHeight || rowsAppended == layout.height {
                transformer.transform(rows: rowInMCU, mcuRow: mcuRow, into: &store, storeRow: streams ? 0 : mcuRow)
                if streams, var coder {
                    self.coder = nil
                    // One component: MCU rows are block rows, one per MCU row of the frame.
                    coder.encode(rows: mcuRow..<(mcuRow + 1), store: store, storeOffset: mcuRow)
                    self.coder = coder
                }
                rowInMCU = 0
                mcuRow += 1
            }
        }

        /// Appends every row of `pixels` (which must match the sink's width and format).
        public mutating func append(_ pixels: PixelBuffer) throws(ImageEncodingError) {
            guard pixels.width == layout.width, pixels.format == pixelFormat else {
                throw .invalidImage("pixel buffer does not match the sink")
            }
            let bytesPerRow = pixels.bytesPerRow
            let result: Result<Void, ImageEncodingError> = pixels.bytes.withUnsafeBytes { all in
                do throws(ImageEncodingError) {
                    for y in 0..<pixels.height {
                        try append(row: UnsafeRawBufferPointer(rebasing: all[(y * bytesPerRow)..<((y + 1) * bytesPerRow)]))
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }

        /// The bytes produced so far, which the sink forgets.
        public mutating func takeBytes() -> [UInt8] {
            var taken = output
            output = []
            if var coder {
                self.coder = nil
                taken += coder.sink.writer.bytes
                coder.sink.writer.removeAllBytes()
                self.coder = coder
            }
            return taken
        }

        /// Codes what remains and returns the bytes not yet taken, through EOI.
        ///
        /// - Throws: ``ImageEncodingError/invalidImage(_:)`` when rows are missing.
        public mutating func finish() throws(ImageEncodingError) -> [UInt8] {
            guard rowsAppended == layout.height else { throw .invalidImage("\(remainingRows) rows missing") }
            if streams, var coder {
                self.coder = nil
                coder.finish()
                self.coder = coder
            } else if options.isProgressive {
                writeScans(ScanSpec.simpleProgression(componentCount: layout.components.count))
            } else {
                writeScans([ScanSpec.sequential(componentCount: layout.components.count)])
            }
            var bytes = takeBytes()
            MarkerWriter.endOfImage(into: &bytes)
            return bytes
        }

        /// SOI, JFIF, the metadata segments, DQT and SOF.
        private mutating func writeFileHeader() {
            MarkerWriter.startOfImage(into: &output)
            MarkerWriter.jfif(density: options.metadata.contains(.density) ? metadata.density : nil, into: &output)
            if options.metadata.contains(.exif), metadata.orientation != .up {
                MarkerWriter.exifOrientation(metadata.orientation, into: &output)
            }
            if options.metadata.contains(.iccProfile), let profile = metadata.iccProfile, !profile.isEmpty {
                MarkerWriter.iccProfile(profile, into: &output)
            }
            MarkerWriter.quantizationTable(tables[0], index: 0, into: &output)
            if layout.components.count > 1 { MarkerWriter.quantizationTable(tables[1], index: 1, into: &output) }
            MarkerWriter.frame(layout, progressive: options.isProgressive, into: &output)
        }

        /// DHT for each table the scan uses that is not in `sent` (libjpeg's
        /// `write_scan_header` order: per component DC then AC), DRI when the
        /// interval changed, SOS. Returns the slots written.
        @discardableResult
        private mutating func writeScanHeader(_ scan: ScanSpec, tables: [HuffmanCodeTable], sent: Set<Int>,
                                              restartInterval: Int, lastInterval: Int) -> Set<Int> {
            var sent = sent
            for c in scan.components {
                let table = layout.components[c].table
                if scan.spectralStart == 0 && scan.approximationHigh == 0 && !sent.contains(table) {
                    MarkerWriter.huffmanTable(tables[table], slot: table, into: &output)
                    sent.insert(table)
                }
                if scan.spectralEnd != 0 && !sent.contains(2 + table) {
                    MarkerWriter.huffmanTable(tables[2 + table], slot: 2 + table, into: &output)
                    sent.insert(2 + table)
                }
            }
            if restartInterval != lastInterval { MarkerWriter.restartInterval(restartInterval, into: &output) }
            MarkerWriter.scanHeader(scan, layout: layout, into: &output)
            return sent
        }

        /// Each scan in two passes: count symbols, build libjpeg's optimal
        /// tables from the counts, write.
        private mutating func writeScans(_ scans: [ScanSpec]) {
            var lastInterval = 0
            for scan in scans {
                var counter = ScanCoder(sink: SymbolCounter(), layout: layout, scan: scan, restartRows: options.restartRows)
                counter.encode(rows: 0..<counter.mcuRowCount, store: store)
                counter.finish()
                var tables = [HuffmanCodeTable](repeating: .standardLuminanceDC, count: 4)
                var writer = HuffmanWriter(writer: BitWriter(capacity: 1 << 16))
                let counts = (0..<4).map { counter.sink.counts($0) }
                for slot in 0..<4 where counts[slot].contains(where: { $0 != 0 }) {
                    tables[slot] = HuffmanCodeTable.optimal(frequencies: counts[slot])
                    writer.setTable(tables[slot], slot: slot)
                }
                // Refinement DC scans use no table.
                let unused: Set<Int> = Set((0..<4).filter { slot in !counts[slot].contains(where: { $0 != 0 }) })
                writeScanHeader(scan, tables: tables, sent: unused, restartInterval: counter.restartInterval,
                                lastInterval: lastInterval)
                lastInterval = counter.restartInterval
                var coder = ScanCoder(sink: writer, layout: layout, scan: scan, restartRows: options.restartRows)
                coder.encode(rows: 0..<coder.mcuRowCount, store: store)
                coder.finish()
                output += coder.sink.writer.bytes
            }
        }
    }
}
