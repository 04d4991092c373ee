extension AVIF {
    /// The sequence header OBU (AV1 §5.5, semantics §6.4): profile, operating points,
    /// maximum frame size, the coding tools the frames may use and the colour config; the
    /// reduced still-picture header (§5.5.1) leaves most of them at their defaults.
    public struct SequenceHeader: Sendable, Hashable {
        public struct OperatingPoint: Sendable, Hashable {
            /// `operating_point_idc`: the temporal (bits 0–7) and spatial (8–11) layers it holds.
            public var idc: Int
            public var level: Int
            public var tier: Int
            public var decoderModelPresent: Bool
        }

        /// The value of `seq_force_screen_content_tools` and `seq_force_integer_mv` meaning "per frame".
        static let selectPerFrame = 2

        public var profile = 0
        public var isStillPicture = false
        public var hasReducedStillPictureHeader = false
        public var operatingPoints: [OperatingPoint] = []
        public var maxFrameWidth = 0
        public var maxFrameHeight = 0
        public var uses128x128Superblocks = false
        public var enablesFilterIntra = false
        public var enablesIntraEdgeFilter = false
        public var enablesSuperres = false
        public var enablesCDEF = false
        public var enablesRestoration = false
        public var color = ColorConfig()
        public var hasFilmGrain = false

        // What the frame header's parsing needs (§5.9).
        var frameWidthBits = 0, frameHeightBits = 0
        var decoderModelInfoPresent = false, equalPictureInterval = false
        var bufferRemovalTimeLength = 0, framePresentationTimeLength = 0
        var frameIDNumbersPresent = false, frameIDLength = 0
        var orderHintBits = 0
        var forceScreenContentTools = selectPerFrame, forceIntegerMV = selectPerFrame

        init(_ bytes: [UInt8], _ payload: Range<Int>) throws(ImageDecodingError) {
            var reader = BitReader(bytes, payload, obuType: OBU.Kind.sequenceHeader.rawValue)
            profile = try reader.bits(3)
            guard profile <= 2 else { throw .avif(.profile(profile)) }
            isStillPicture = try reader.flag()
            hasReducedStillPictureHeader = try reader.flag()
            // §6.4: a reduced header is only for still pictures.
            if hasReducedStillPictureHeader && !isStillPicture { throw .avif(.headerValue) }
            if hasReducedStillPictureHeader {
                let level = try reader.bits(5)
                operatingPoints = [OperatingPoint(idc: 0, level: level, tier: 0, decoderModelPresent: false)]
            } else {
                try readTimingAndOperatingPoints(&reader)
            }
            frameWidthBits = try reader.bits(4) + 1
            frameHeightBits = try reader.bits(4) + 1
            maxFrameWidth = try reader.bits(frameWidthBits) + 1
            maxFrameHeight = try reader.bits(frameHeightBits) + 1
            if !hasReducedStillPictureHeader {
                frameIDNumbersPresent = try reader.flag()
                if frameIDNumbersPresent {
                    let delta = try reader.bits(4) + 2
                    frameIDLength = try reader.bits(3) + 1 + delta
                }
            }
            uses128x128Superblocks = try reader.flag()
            enablesFilterIntra = try reader.flag()
            enablesIntraEdgeFilter = try reader.flag()
            if !hasReducedStillPictureHeader { try readInterTools(&reader) }
            enablesSuperres = try reader.flag()
            enablesCDEF = try reader.flag()
            enablesRestoration = try reader.flag()
            color = try ColorConfig(&reader, profile: profile)
            hasFilmGrain = try reader.flag()
        }

        /// `timing_info()`, `decoder_model_info()` and the operating points (§5.5.1, §5.5.3–§5.5.5).
        private mutating func readTimingAndOperatingPoints(_ reader: inout BitReader) throws(ImageDecodingError) {
            var bufferDelayLength = 0
            if try reader.flag() {  // timing_info_present_flag
                _ = try reader.bits(32)  // num_units_in_display_tick
                _ = try reader.bits(32)  // time_scale
                equalPictureInterval = try reader.flag()
                if equalPictureInterval { _ = try reader.uvlc() }
                decoderModelInfoPresent = try reader.flag()
                if decoderModelInfoPresent {
                    bufferDelayLength = try reader.bits(5) + 1
                    _ = try reader.bits(32)  // num_units_in_decoding_tick
                    bufferRemovalTimeLength = try reader.bits(5) + 1
                    framePresentationTimeLength = try reader.bits(5) + 1
                }
            }
            let initialDisplayDelayPresent = try reader.flag()
            let count = try reader.bits(5) + 1
            for _ in 0..<count {
                let idc = try reader.bits(12)
                let level = try reader.bits(5)
                let tier = level > 7 ? try reader.bits(1) : 0
                var modelPresent = false
                if decoderModelInfoPresent {
                    modelPresent = try reader.flag()
                    if modelPresent {
                        _ = try reader.bits(bufferDelayLength)  // decoder_buffer_delay
                        _ = try reader.bits(bufferDelayLength)  // encoder_buffer_delay
                        _ = try reader.flag()  // low_delay_mode_flag
                    }
                }
                if initialDisplayDelayPresent, try reader.flag() { _ = try reader.bits(4) }
                operatingPoints.append(OperatingPoint(idc: idc, level: level, tier: tier, decoderModelPresent: modelPresent))
            }
        }

        /// The inter-coding tool flags of a full header (§5.5.1), of which the frame header needs
        /// the screen-content, integer-motion and order-hint settings.
        private mutating func readInterTools(_ reader: inout BitReader) throws(ImageDecodingError) {
            _ = try reader.flag()  // enable_interintra_compound
            _ = try reader.flag()  // enable_masked_compound
            _ = try reader.flag()  // enable_warped_motion
            _ = try reader.flag()  // enable_dual_filter
            let orderHint = try reader.flag()
            if orderHint {
                _ = try reader.flag()  // enable_jnt_comp
                _ = try reader.flag()  // enable_ref_frame_mvs
            }
            forceScreenContentTools = try reader.flag() ? Self.selectPerFrame : try reader.bits(1)
            if forceScreenContentTools > 0 {
                forceIntegerMV = try reader.flag() ? Self.selectPerFrame : try reader.bits(1)
            } else {
                forceIntegerMV = Self.selectPerFrame
            }
            if orderHint { orderHintBits = try reader.bits(3) + 1 }
        }
    }
}
