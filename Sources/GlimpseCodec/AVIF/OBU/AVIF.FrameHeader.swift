extension AVIF {
    /// The first fields of a frame's `uncompressed_header()` (AV1 §5.9.2, semantics §6.8.2),
    /// as far as the frame size (§5.9.5–§5.9.8): enough to say what the frame is.
    public struct FrameHeader: Sendable, Hashable {
        /// `frame_type` (§6.8.2).
        public enum FrameType: Int, Sendable {
            case key = 0, inter = 1, intraOnly = 2, switchFrame = 3
        }

        public var frameType = FrameType.key
        public var showsFrame = true
        public var isErrorResilient = true
        public var allowsScreenContentTools = false
        /// The coded size (after super-resolution's horizontal downscaling).
        public var frameWidth = 0
        public var frameHeight = 0
        /// The width after super-resolution upscaling (the frame's output width).
        public var upscaledWidth = 0
        /// `SuperresDenom`: 8 for none, 9–16 when the frame is coded narrower.
        public var superresDenominator = 8
        public var renderWidth = 0
        public var renderHeight = 0
        public var allowsIntraBlockCopy = false

        public var isIntra: Bool { frameType == .key || frameType == .intraOnly }

        /// `disable_cdf_update` (§6.8.2): the symbol decoder leaves its CDFs as they are.
        var disablesCDFUpdate = false
        /// `showable_frame` (§6.8.2); film grain is read only for a shown or showable frame.
        var isShowable = false

        /// Parses the first fields of the header in `obu`'s payload; throws
        /// ``AVIF/AV1Defect/firstFrame`` for a frame a still cannot start with.
        init(_ bytes: [UInt8], _ obu: OBU, sequence: SequenceHeader) throws(ImageDecodingError) {
            var reader = BitReader(bytes, obu.payload, obuType: obu.type)
            try self.init(&reader, obu, sequence: sequence)
        }

        /// Reads the fields from `reader`, leaving it after `allow_intrabc`, where
        /// ``AVIF/FrameParameters`` goes on with the rest of `uncompressed_header()`.
        init(_ reader: inout BitReader, _ obu: OBU, sequence: SequenceHeader) throws(ImageDecodingError) {
            if !sequence.hasReducedStillPictureHeader {
                // show_existing_frame: shows a frame decoded earlier, which a first frame has not.
                if try reader.flag() { throw .avif(.firstFrame) }
                guard let type = FrameType(rawValue: try reader.bits(2)) else { throw .avif(.headerValue) }
                frameType = type
                guard isIntra else { throw .avif(.firstFrame) }
                showsFrame = try reader.flag()
                if showsFrame && sequence.decoderModelInfoPresent && !sequence.equalPictureInterval {
                    _ = try reader.bits(sequence.framePresentationTimeLength)  // temporal_point_info()
                }
                isShowable = showsFrame ? frameType != .key : try reader.flag()  // showable_frame
                isErrorResilient = frameType == .key && showsFrame ? true : try reader.flag()
            }
            disablesCDFUpdate = try reader.flag()
            allowsScreenContentTools = sequence.forceScreenContentTools == SequenceHeader.selectPerFrame
                ? try reader.flag() : sequence.forceScreenContentTools == 1
            if allowsScreenContentTools && sequence.forceIntegerMV == SequenceHeader.selectPerFrame {
                _ = try reader.flag()  // force_integer_mv (1 anyway for intra frames)
            }
            if sequence.frameIDNumbersPresent { _ = try reader.bits(sequence.frameIDLength) }  // current_frame_id
            let sizeOverride = sequence.hasReducedStillPictureHeader ? false : try reader.flag()
            _ = try reader.bits(sequence.orderHintBits)  // order_hint
            // primary_ref_frame is absent: intra frames have none.
            if sequence.decoderModelInfoPresent, try reader.flag() {  // buffer_removal_time_present_flag
                for point in sequence.operatingPoints where point.decoderModelPresent {
                    let inTemporal = point.idc >> obu.temporalID & 1 != 0
                    let inSpatial = point.idc >> (obu.spatialID + 8) & 1 != 0
                    if point.idc == 0 || (inTemporal && inSpatial) { _ = try reader.bits(sequence.bufferRemovalTimeLength) }
                }
            }
            var refreshFlags = 0xFF
            if !(frameType == .key && showsFrame) { refreshFlags = try reader.bits(8) }
            // §6.8.2: an intra-only frame must not refresh every reference.
            if frameType == .intraOnly && refreshFlags == 0xFF { throw .avif(.headerValue) }
            if refreshFlags != 0xFF && isErrorResilient && sequence.orderHintBits > 0 {
                for _ in 0..<8 { _ = try reader.bits(sequence.orderHintBits) }  // ref_order_hint
            }
            try readFrameSize(&reader, override: sizeOverride, sequence: sequence)
            if allowsScreenContentTools && upscaledWidth == frameWidth { allowsIntraBlockCopy = try reader.flag() }
        }

        /// `frame_size()`, `superres_params()` and `render_size()` (§5.9.5–§5.9.7).
        private mutating func readFrameSize(_ reader: inout BitReader, override: Bool, sequence: SequenceHeader) throws(ImageDecodingError) {
            if override {
                frameWidth = try reader.bits(sequence.frameWidthBits) + 1
                frameHeight = try reader.bits(sequence.frameHeightBits) + 1
                // §6.8.4: no larger than the sequence's maximum.
                guard frameWidth <= sequence.maxFrameWidth, frameHeight <= sequence.maxFrameHeight else {
                    throw .avif(.headerValue)
                }
            } else {
                frameWidth = sequence.maxFrameWidth
                frameHeight = sequence.maxFrameHeight
            }
            upscaledWidth = frameWidth
            if sequence.enablesSuperres, try reader.flag() {
                superresDenominator = try reader.bits(3) + 9
                frameWidth = (upscaledWidth * 8 + superresDenominator / 2) / superresDenominator
            }
            if try reader.flag() {  // render_and_frame_size_different
                renderWidth = try reader.bits(16) + 1
                renderHeight = try reader.bits(16) + 1
            } else {
                renderWidth = upscaledWidth
                renderHeight = frameHeight
            }
        }
    }
}
