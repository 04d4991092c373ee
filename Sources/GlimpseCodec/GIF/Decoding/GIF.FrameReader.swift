extension GIF {
    /// The engine shared by ``GIF/Decoder`` and ``GIF/FrameIterator``: turns the
    /// lexer's blocks into composed frames, one at a time.
    ///
    /// It holds the canvas, the rectangle saved for a "restore to previous"
    /// frame, and the current frame's palette indices, and nothing else: the
    /// caller decides whether to keep the frames it returns.
    struct FrameReader: Sendable {
        /// What ``read(_:_:)`` stopped at.
        enum Step {
            /// The input is used up.
            case needMoreData
            /// A frame is complete (or its data ended early; see `isComplete`).
            case frame(ImageFrame)
            /// The trailer was reached.
            case end
        }

        /// The frame being decoded.
        private struct Current: Sendable {
            var descriptor: ImageDescriptor
            var table: ColorTable
            var clip: Rect
            var control: GraphicControl
            /// Whether the frame overlaps the canvas.
            var isVisible: Bool
            /// Whether its data is decoded: when it is visible, and in strict mode
            /// always, so that damage in a frame off the canvas is found too.
            var isDecoded: Bool
            var pixelCount: Int { descriptor.width &* descriptor.height }
        }

        let limits: DecodingLimits
        let mode: DecodingOptions.Mode
        /// What a lenient decode recovered from so far.
        private(set) var warnings: [DecodingWarning] = []
        /// The current frame already has a warning (its data ended at a bad code).
        private var frameWarned = false
        private var lexer = Lexer()
        private(set) var screen: LogicalScreen?
        private var globalTable: [UInt8]?
        /// The NETSCAPE2.0 loop field as stored (the last one wins), if any.
        private(set) var loopField: Int?
        private var control: GraphicControl?
        private var canvas: Canvas?
        private var current: Current?
        /// The LZW state, kept from frame to frame for its table's memory; it decodes
        /// only while `lzwActive` (from the minimum code size of a frame with something
        /// on the canvas to the end of its data). Kept apart from `current` so that
        /// decoding a sub-block copies nothing.
        private var lzw: LZWDecoder?
        private var lzwActive = false
        /// The current frame's `width * height` (0 when invisible) and width.
        private var framePixels = 0, frameWidth = 1
        /// Indices decoded so far, and stored rows already painted.
        private var decoded = 0, paintedRows = 0
        private var indices: [UInt8] = []
        private var saved: [UInt8] = []
        private var pendingDisposal: (Disposal, Rect) = (.none, Rect())
        /// Frames started so far.
        private(set) var frameCount = 0
        /// Bytes the caller holds on to (the frames it kept), counted against the budget.
        var retainedBytes = 0
        /// The trailer was reached.
        private(set) var isAtEnd = false

        init(limits: DecodingLimits, mode: DecodingOptions.Mode) {
            self.limits = limits
            self.mode = mode
        }

        /// Whether the input may stop here without losing a frame: no frame is under
        /// way (a missing trailer, or a cut inside a trailing extension, loses nothing).
        var isBetweenFrames: Bool { current == nil && !lexer.isInsideImage }

        /// Records that the input ended here, losing the trailer or (part of) a frame.
        mutating func noteEndOfInput() {
            let defect: GIF.Defect = isBetweenFrames ? .missingTrailer
                : .truncatedFrame(frame: current == nil ? frameCount : frameCount &- 1)
            warnings.append(DecodingWarning(.gif(defect)))
        }

        /// Bytes of the canvas, once allocated.
        var canvasBytes: Int { canvas.map { $0.pixels.count } ?? 0 }

        /// Reads from `input[offset...]` until a frame is complete, the trailer is
        /// reached or the input is used up.
        mutating func read(_ input: UnsafeRawBufferPointer, _ offset: inout Int) throws(ImageDecodingError) -> Step {
            if isAtEnd { return .end }
            while let event = try lexer.next(input, &offset) {
                switch event {
                case .screen(let screen):
                    guard screen.width > 0, screen.height > 0 else { throw .malformed(.gif(.zeroSizeScreen)) }
                    try limits.checkDimensions(width: screen.width, height: screen.height)
                    self.screen = screen
                case .globalColorTable(let rgb):
                    globalTable = rgb
                case .graphicControl(let control):
                    self.control = control
                case .loopCount(let value):
                    loopField = value
                case .image(let descriptor, let local):
                    try startFrame(descriptor, localTable: local)
                case .imageDataStart(let minimumCodeSize):
                    if current?.isDecoded == true {
                        if lzw == nil {
                            lzw = try LZWDecoder(minimumCodeSize: minimumCodeSize)
                        } else {
                            try lzw?.reset(minimumCodeSize: minimumCodeSize)
                        }
                        lzwActive = true
                    }
                case .imageData(let data):
                    try decode(data)
                case .imageDataEnd:
                    let index = frameCount &- 1
                    let frame = finishFrame()
                    if !frame.isComplete {
                        // giflib fails such a frame (D_GIF_ERR_EOF_TOO_SOON / IMAGE_DEFECT);
                        // browsers show the pixels it has.
                        guard mode == .lenient else { throw .malformed(.gif(.missingPixels(frame: index))) }
                        if !frameWarned { warnings.append(DecodingWarning(.gif(.missingPixels(frame: index)))) }
                    }
                    return .frame(frame)
                case .trailer:
                    isAtEnd = true
                    return .end
                }
            }
            return .needMoreData
        }

        private mutating func startFrame(_ descriptor: ImageDescriptor, localTable: [UInt8]?) throws(ImageDecodingError) {
            guard let screen else { throw .malformed(.gif(.imageBeforeScreen)) }
            try limits.checkFrames(frameCount &+ 1)
            if canvas == nil {
                try limits.checkBytes(screen.width &* screen.height, of: 4, alreadyUsed: retainedBytes)
                canvas = Canvas(width: screen.width, height: screen.height)
            }
            let frameControl = control ?? GraphicControl()
            control = nil
            let clip = Rect(clipping: descriptor, canvasWidth: screen.width, canvasHeight: screen.height)
            let isVisible = !clip.isEmpty
            let isDecoded = isVisible || mode == .strict
            var working = screen.width &* screen.height &* 4
            if frameControl.disposal == .previous {
                working &+= clip.pixelCount &* 4
            }
            if isDecoded {
                try limits.checkDimensions(width: descriptor.width, height: descriptor.height)
                working &+= descriptor.width &* descriptor.height
            }
            try limits.checkBytes(working, alreadyUsed: retainedBytes)
            guard var canvas else { return }
            self.canvas = nil  // keeps the pixels uniquely referenced while disposing

            // The previous frame's disposal applies now, just before this one is drawn.
            switch pendingDisposal.0 {
            case .background: canvas.clear(pendingDisposal.1)
            case .previous: canvas.restore(pendingDisposal.1, from: saved)
            case .none, .unspecified: break
            }
            if frameControl.disposal == .previous { canvas.save(clip, into: &saved) }
            self.canvas = canvas
            if isDecoded {
                let count = descriptor.width &* descriptor.height
                if indices.count < LZWDecoder.bufferSize(count: count) {
                    indices = []
                    indices = LZWDecoder.makeBuffer(count: count)
                }
            }
            lzwActive = false
            framePixels = isDecoded ? descriptor.width &* descriptor.height : 0
            frameWidth = max(1, descriptor.width)
            decoded = 0
            paintedRows = 0
            frameWarned = false
            current = Current(
                descriptor: descriptor,
                table: ColorTable(rgb: localTable ?? globalTable, transparentIndex: frameControl.transparentIndex),
                clip: clip, control: frameControl, isVisible: isVisible, isDecoded: isDecoded)
            frameCount &+= 1
        }

        private mutating func decode(_ data: UnsafeRawBufferPointer) throws(ImageDecodingError) {
            // Only the local may reference the tables while decoding, or they would be copied.
            guard lzwActive, var decoder = lzw else { return }
            lzw = nil
            var position = decoded
            let count = framePixels
            let result: ImageDecodingError? = indices.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                do throws(ImageDecodingError) {
                    // The buffer came from `makeBuffer` and holds `count` bytes after the prefix.
                    try decoder.decode(data, into: base + LZWDecoder.literalPrefix, count: count, position: &position)
                    return nil
                } catch { return error }
            }
            if let result {
                // Browsers end the frame's data at a code not yet in the table.
                guard mode == .lenient, case .malformed(.gif(.lzwCode(_, _))) = result,
                      case .malformed(let defect) = result else { throw result }
                warnings.append(DecodingWarning(defect))
                frameWarned = true
                lzwActive = false
            }
            lzw = decoder
            decoded = position
            let rows = position / frameWidth
            if rows > paintedRows { paintRows(through: rows) }
        }

        /// Paints the stored rows decoded since the last call onto the canvas.
        private mutating func paintRows(through rowLimit: Int) {
            guard let frame = current, frame.isVisible, var canvas, rowLimit > paintedRows else { return }
            self.canvas = nil  // keeps the canvas uniquely referenced while painting
            for row in paintedRows..<rowLimit {
                paint(row: row, pixels: frame.descriptor.width, frame: frame, on: &canvas)
            }
            self.canvas = canvas
            paintedRows = rowLimit
        }

        /// Paints the first `pixels` indices of stored row `row`, clipped to the canvas.
        private func paint(row: Int, pixels: Int, frame: Current, on canvas: inout Canvas) {
            let descriptor = frame.descriptor
            let y = descriptor.isInterlaced ? Interlace.row(row, height: descriptor.height) : row
            let canvasY = descriptor.top &+ y
            guard canvasY >= frame.clip.y, canvasY < frame.clip.y &+ frame.clip.height else { return }
            let skip = frame.clip.x &- descriptor.left
            let count = min(pixels, skip &+ frame.clip.width) &- skip
            guard count > 0 else { return }
            indices.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                // `prefix + row * width + skip + count <= prefix + width * height <= buffer.count`.
                canvas.paint(base + (LZWDecoder.literalPrefix &+ row &* descriptor.width &+ skip), count: count, x: frame.clip.x, y: canvasY, table: frame.table)
            }
        }

        /// Ends the current frame: paints a trailing partial row and returns the canvas.
        private mutating func finishFrame() -> ImageFrame {
            guard let frame = current, let screen else {
                return ImageFrame(pixels: PixelBuffer(width: 0, height: 0))
            }
            let width = frameWidth
            let isComplete = !frame.isDecoded || decoded >= frame.pixelCount
            if frame.isVisible, decoded % width != 0, var canvas {
                self.canvas = nil
                paint(row: decoded / width, pixels: decoded % width, frame: frame, on: &canvas)
                self.canvas = canvas
            }
            current = nil
            lzwActive = false
            pendingDisposal = (frame.control.disposal, frame.clip)
            let bytes = canvas?.pixels ?? []
            let pixels = PixelBuffer(width: screen.width, height: screen.height, bytes: bytes)
                ?? PixelBuffer(width: 0, height: 0)
            return ImageFrame(pixels: pixels, duration: .milliseconds(frame.control.delayCentiseconds &* 10),
                              isComplete: isComplete)
        }

        /// The canvas with the rows of the current frame painted so far, if a frame is under way.
        func frameInProgress() -> ImageFrame? {
            guard let frame = current, let canvas, let screen,
                  let pixels = PixelBuffer(width: screen.width, height: screen.height, bytes: canvas.pixels) else { return nil }
            return ImageFrame(pixels: pixels, duration: .milliseconds(frame.control.delayCentiseconds &* 10), isComplete: false)
        }

        /// A transparent canvas, for a file whose screen holds no frame at all.
        func blankCanvas() throws(ImageDecodingError) -> ImageFrame? {
            guard let screen else { return nil }
            try limits.checkBytes(screen.width &* screen.height, of: 4, alreadyUsed: retainedBytes)
            return ImageFrame(pixels: PixelBuffer(width: screen.width, height: screen.height))
        }
    }
}
