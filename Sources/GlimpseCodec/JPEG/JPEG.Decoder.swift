extension JPEG {
    /// An incremental baseline/progressive JPEG decoder (ITU-T T.81 annexes B,
    /// F and G) that follows the ``ImageDecoder`` contract.
    ///
    /// - Sequential frames: rows of the image become available as MCU rows
    ///   complete; input is decoded as it arrives, and an MCU row cut short by
    ///   the end of the available input is decoded again when more arrives.
    /// - Progressive frames: each scan is decoded once all of its data is
    ///   there; ``partialImage()`` renders the coefficients known so far.
    /// - ``DecodingOptions/scaleDenominator`` 2, 4 or 8 decodes at reduced size
    ///   with smaller inverse DCTs.
    /// - Output is RGBA8, identical to libjpeg-turbo's default output.
    public struct Decoder: ImageDecoder {
        public static var format: ImageFormat { .jpeg }

        enum Phase: Sendable {
            case signature
            case markers
            case sequentialScan
            case progressiveScan
            case done
        }

        /// The state of the scan being decoded.
        struct ScanState: Sendable {
            var header: ScanHeader
            var reader: BitReader
            /// Next MCU row (sequential) to decode.
            var row = 0
            var predictors = SIMD4<Int32>()
            var eobRun = 0
            var restartsLeft: Int
            /// Progressive: where the search for the end of the scan resumes.
            var searchPosition: Int
            /// Sequential: bytes the last MCU row took, to skip attempts that cannot succeed yet.
            var lastRowBytes = 0
            /// Sequential: the input size at which a row that ran out of input is tried again
            /// (twice the bytes it had): a row longer than the last one, or one still looking
            /// for its restart marker, was otherwise decoded again for every chunk, which fed
            /// in small chunks cost time quadratic in the row's length.
            var retryAt = 0
            /// The restart marker expected next (libjpeg's `next_restart_num`).
            var nextRestart = 0
            /// libjpeg's `insufficient_data`: the entropy decoder read past the end of its
            /// data, so MCUs are left as zero coefficients until a restart marker is read.
            var insufficient = false
            /// Progressive: the last iMCU row decoded while data was sufficient (libjpeg's
            /// `last_good_iMCU_row`), which picks the coefficient bits block smoothing uses.
            var lastGoodRow = 0
            /// What was recovered from in the rows decoded so far, reported when they are kept.
            var recoveries: [JPEG.Defect] = []
        }

        let options: DecodingOptions
        let scale: Int
        var input: [UInt8] = []
        var position = 0
        var inputEnded = false
        var phase: Phase = .signature
        var failure: ImageDecodingError?

        var huffman = HuffmanTables()
        /// Huffman slots a DHT segment defined (the others hold T.81 §K.3's tables, or nothing).
        var tablesFromDHT = [Bool](repeating: false, count: 8)
        /// Quantisation tables in natural order, as the DQT defined them.
        var quantTables = [Int16](repeating: 0, count: 4 * 64)
        var quantDefined = [Bool](repeating: false, count: 4)
        var restartInterval = 0
        var collector = MetadataCollector()

        var frame: FrameHeader?
        var layout: Layout?
        var transform: ColorTransform = .ycbcr
        /// The embedded CMYK profile's conversion to sRGB, when ``DecodingOptions/colorPolicy`` asks for it.
        var profileTransform: GlimpseCodec.ColorTransform?
        /// Each component's quantisation table, copied at its first scan (libjpeg latches it then).
        var componentQuant: [Int32] = []
        var quantLatched: [Bool] = []
        /// Per component, the successive-approximation bit position Al of zig-zag
        /// coefficients 0…9 after the scans so far (-1: not seen), for block smoothing.
        var coefficientBits: [Int] = []
        var planes: [UInt8] = []
        /// Progressive frames and sequential frames of several scans: every block's coefficients.
        var coefficients: CoefficientBuffer?
        var output: [UInt8] = []
        var planeRowsDone: [Int] = []
        var rowsRendered = 0
        var scan: ScanState?
        var scanCount = 0
        /// The file ended inside entropy-coded data.
        var truncated = false
        var finalImage: Image?

        /// Recover from damage as libjpeg-turbo does instead of failing (``DecodingOptions/Mode/lenient``).
        let lenient: Bool
        /// What a lenient decode recovered from so far, each defect once.
        var recoveries: [JPEG.Defect] = []
        /// Per component, Al of zig-zag coefficients 1…9 before the component's latest scan
        /// (libjpeg's second half of `coef_bits`), for block smoothing below ``ScanState/lastGoodRow``.
        var previousCoefficientBits: [Int] = []
        /// Per component and zig-zag coefficient, the Al of the last scan that coded it
        /// (-1: none), to check the progression as libjpeg does.
        var progression: [Int] = []
        /// libjpeg's `last_good_iMCU_row` after the latest scan.
        var lastGoodRow = Int.max
        /// The first scan held every component of a sequential frame: libjpeg then
        /// decodes it as the only scan, and another SOS is an error.
        var singleScan = false
        /// Extraneous bytes passed before the marker not found yet.
        var skippedBeforeMarker = 0

        public internal(set) var info: ImageInfo?

        public init(options: DecodingOptions) {
            self.options = options
            lenient = options.mode == .lenient
            let d = options.scaleDenominator
            scale = d >= 8 ? 8 : (d >= 4 ? 4 : (d >= 2 ? 2 : 1))
        }

        /// Damage libjpeg-turbo decodes through with a warning (its `JWRN_*`
        /// messages): recorded when lenient, an error when strict, so that a strict
        /// decode accepts exactly the files libjpeg-turbo decodes without a warning.
        mutating func recover(_ defect: JPEG.Defect) throws(ImageDecodingError) {
            guard lenient else { throw defect == .prematureEnd ? .truncated : .malformed(.jpeg(defect)) }
            if recoveries.count < 16 && !recoveries.contains(defect) { recoveries.append(defect) }
        }

        /// What libjpeg's memory source reads past the end of the data: a fake EOI
        /// marker for every refill. Enough for the longest segment a skip may cross.
        static let fakeEndOfImage: [UInt8] = Array(repeating: [0xFF, 0xD9], count: 32_770).flatMap { $0 }

        public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
            if let failure { throw failure }
            if phase == .done { return .complete }
            input.append(contentsOf: bytes)
            do throws(ImageDecodingError) {
                try advance()
            } catch {
                failure = error
                throw error
            }
            return phase == .done ? .complete : .needMoreData
        }

        public mutating func finish() throws(ImageDecodingError) -> Image {
            if let failure { throw failure }
            if let finalImage { return finalImage }
            inputEnded = true
            do throws(ImageDecodingError) {
                try advance()
                if lenient && phase != .done {
                    // libjpeg reads on past the end of the file as if it held EOI markers:
                    // the entropy data stops there, and the missing rest decodes as libjpeg
                    // decodes it (zero bits, then zero coefficients).
                    try recover(.prematureEnd)
                    input.append(contentsOf: Self.fakeEndOfImage)
                    try advance()
                }
            } catch {
                failure = error
                throw error
            }
            let complete = phase == .done
            guard complete, let image = renderImage(isComplete: true) else {
                if layout != nil, scanCount > 0 {
                    finalImage = nil
                    partial = renderImage(isComplete: false)
                }
                failure = .truncated
                throw .truncated
            }
            finalImage = image
            return image
        }

        /// The image kept after a truncated `finish`.
        var partial: Image?

        public func partialImage() -> Image? {
            if let finalImage { return finalImage }
            if let partial { return partial }
            guard layout != nil, scanCount > 0 else { return nil }
            return renderImage(isComplete: false)
        }

        /// A sequential frame whose every component has been decoded to the end.
        var isSequentialComplete: Bool {
            guard let frame, let layout, !frame.progressive, planeRowsDone.count == layout.components.count else { return false }
            return zip(planeRowsDone, layout.components).allSatisfy { $0 >= $1.planeHeight }
        }

        var metadata: ImageMetadata { collector.metadata }

        /// Runs the state machine as far as the buffered input allows.
        mutating func advance() throws(ImageDecodingError) {
            while true {
                switch phase {
                case .signature:
                    guard input.count >= 2 else {
                        if inputEnded { throw .truncated }
                        return
                    }
                    guard input[0] == 0xFF, input[1] == Marker.soi else { throw .malformed(.jpeg(.missingStartOfImage)) }
                    position = 2
                    phase = .markers
                case .markers:
                    guard try processNextMarker() else { return }
                case .sequentialScan:
                    guard try decodeSequentialScan() else { return }
                case .progressiveScan:
                    guard try decodeProgressiveScan() else { return }
                case .done:
                    return
                }
            }
        }

        /// Builds the image from what has been decoded.
        func renderImage(isComplete: Bool) -> Image? {
            guard frame != nil, let layout, scanCount > 0 else { return nil }
            var pixels: [UInt8]
            var renderedRows = 0
            if let coefficients {
                let smoothing = JPEG.BlockSmoothing.applies(coefficientBits: coefficientBits, quant: componentQuant,
                                                            components: layout.components.count)
                pixels = PixelStorage.uninitializedBytes(count: layout.outputWidth * layout.outputHeight * 4,
                                                          adviseHugePages: options.adviseHugePages)
                // MCU row by MCU row through ring planes: transform, then convert the rows that are ready.
                let ring = layout.withRingPlanes()
                var ringPlanes = [UInt8](repeating: 0, count: ring.planeBytes)
                let transform = self.transform
                let quant16 = componentQuant.map { Int16(truncatingIfNeeded: $0) }
                let c = UnsafePointer(coefficients.base)
                withExtendedLifetime(coefficients) {
                    componentQuant.withUnsafeBufferPointer { quant in
                    quant16.withUnsafeBufferPointer { quant16 in
                        ringPlanes.withUnsafeMutableBufferPointer { planes in
                            pixels.withUnsafeMutableBufferPointer { out in
                                // All four buffers were sized from `layout` when the first scan started.
                                guard let q = quant.baseAddress, let q16 = quant16.baseAddress,
                                      let p = planes.baseAddress, let o = out.baseAddress else { return }
                                let workspace = UnsafeMutablePointer<Int32>.allocate(capacity: 128)
                                let block = UnsafeMutablePointer<Int16>.allocate(capacity: 64)
                                defer { workspace.deallocate(); block.deallocate() }
                                var rendered = 0
                                // Rows past the last one the final scan reached with data use the bits from
                                // before each component's latest scan (libjpeg-turbo's `last_good_iMCU_row`).
                                let earlierBits = scanCount > 1 && !previousCoefficientBits.isEmpty
                                    ? previousCoefficientBits : [Int](repeating: -1, count: coefficientBits.count)
                                for mcuRow in 0..<ring.mcusY {
                                    if smoothing {
                                        let bits = mcuRow > lastGoodRow ? earlierBits : coefficientBits
                                        for (index, component) in ring.components.enumerated() {
                                            JPEG.BlockSmoothing.transform(
                                                component: component, mcuRow: mcuRow, layout: ring,
                                                bits: bits[(index * 10)..<(index * 10 + 10)],
                                                coefficients: c, quant: q + index * 64, quant16: q16 + index * 64, plane: p + component.planeOffset,
                                                workspace: workspace, block: block, scratch: workspace + 64)
                                        }
                                    } else {
                                        ring.transform(mcuRow: mcuRow, coefficients: c, quantTables: q, quantTables16: q16, planes: p,
                                                       workspace: workspace)
                                    }
                                    var ready = ring.outputHeight
                                    for (index, component) in ring.components.enumerated() {
                                        let rows = (mcuRow + 1) * component.v * component.blockSize
                                        ready = min(ready, ring.outputRowsReady(component: index, planeRows: rows))
                                    }
                                    if ready > rendered {
                                        ring.render(rows: rendered..<ready, planes: p, transform: transform, output: o)
                                        rendered = ready
                                    }
                                }
                                renderedRows = rendered
                                // Every byte must be written: clear whatever was not rendered.
                                let written = rendered * ring.outputWidth * 4
                                (o + written).update(repeating: 0, count: out.count - written)
                            }
                        }
                    }
                    }
                }
            } else {
                // Rows not decoded yet are transparent black; `output` holds uninitialised bytes there.
                pixels = output
                let written = min(rowsRendered, layout.outputHeight) * layout.outputWidth * 4
                if written < pixels.count {
                    pixels.withUnsafeMutableBufferPointer { out in
                        // `written` < `out.count`, checked just above.
                        out.baseAddress.map { ($0 + written).update(repeating: 0, count: out.count - written) }
                    }
                }
            }
            var metadata = self.metadata
            if let profileTransform {
                // Rendered rows hold ink amounts; rows not rendered yet stay transparent black.
                let rows = coefficients != nil ? renderedRows : min(rowsRendered, layout.outputHeight)
                pixels.withUnsafeMutableBufferPointer { out in
                    let count = min(out.count, rows * layout.outputWidth * 4)
                    profileTransform.convertCMYK(inPlace: UnsafeMutableBufferPointer(rebasing: out[0..<count]))
                }
                // Converted to sRGB (no profile) or to the policy's destination, which it now carries.
                metadata.iccProfile = options.colorPolicy.convertedProfile
            }
            guard let buffer = PixelBuffer(width: layout.outputWidth, height: layout.outputHeight, format: .rgba8, bytes: pixels) else {
                return nil
            }
            return Image(frames: [ImageFrame(pixels: buffer, isComplete: isComplete)], loopCount: 1, format: .jpeg, metadata: metadata,
                         warnings: recoveries.map { DecodingWarning(.jpeg($0)) })
        }

        /// Output rows whose plane rows (context rows included) are all decoded.
        func readyRows(layout: Layout) -> Int {
            var ready = layout.outputHeight
            for c in 0..<layout.components.count {
                let done = c < planeRowsDone.count ? planeRowsDone[c] : 0
                ready = min(ready, layout.outputRowsReady(component: c, planeRows: done))
            }
            return ready
        }
    }
}
