extension AVIF {
    /// The whole `uncompressed_header()` of a key or intra-only frame (AV1 §5.9.2, semantics
    /// §6.8): ``AVIF/FrameHeader``'s first fields, then `tile_info()` (§5.9.15),
    /// `quantization_params()` (§5.9.12), `segmentation_params()` (§5.9.14),
    /// `delta_q_params()`/`delta_lf_params()` (§5.9.17–18), the lossless arrays,
    /// `loop_filter_params()` (§5.9.11), `cdef_params()` (§5.9.19), `lr_params()` (§5.9.20),
    /// `read_tx_mode()` (§5.9.21), `reduced_tx_set` and `film_grain_params()` (§5.9.30).
    /// Intra frames have no reference mode, skip mode, warped motion or global motion, so
    /// those reads are absent (their syntax is conditioned on `FrameIsIntra`).
    /// Names follow the specification's variables.
    struct FrameParameters: Sendable {
        var header: FrameHeader
        var sequence: SequenceHeader
        /// `MiCols`, `MiRows` (§7.21, compute_image_size): the frame in 4×4 units, rounded to 8×8.
        var miCols = 0, miRows = 0
        var numPlanes: Int { sequence.color.isMonochrome ? 1 : 3 }
        var subsamplingX: Int { sequence.color.subsamplingX ? 1 : 0 }
        var subsamplingY: Int { sequence.color.subsamplingY ? 1 : 0 }
        var disableFrameEndUpdateCdf = true
        var tiles = TileInfo()

        // quantization_params() (§5.9.12)
        var baseQIdx = 0
        var deltaQYDc = 0, deltaQUDc = 0, deltaQUAc = 0, deltaQVDc = 0, deltaQVAc = 0
        var usingQmatrix = false
        var qmY = 15, qmU = 15, qmV = 15

        // segmentation_params() (§5.9.14)
        var segmentationEnabled = false
        /// `FeatureEnabled[segment][feature]` and `FeatureData`, flattened: index `segment * 8 + feature`.
        var featureEnabled = [Bool](repeating: false, count: 64)
        var featureData = [Int](repeating: 0, count: 64)
        var segIdPreSkip = false
        var lastActiveSegId = 0

        // delta_q_params(), delta_lf_params() (§5.9.17, §5.9.18)
        var deltaQPresent = false, deltaQRes = 0
        var deltaLfPresent = false, deltaLfRes = 0, deltaLfMulti = false

        /// `LosslessArray[segmentId]`, `CodedLossless`, `AllLossless` (§5.9.2).
        var losslessArray = [Bool](repeating: false, count: 8)
        var codedLossless = false, allLossless = false
        /// `SegQMLevel[plane][segmentId]`, flattened `plane * 8 + segmentId`; meaningful when `usingQmatrix`.
        var segQMLevel = [Int](repeating: 15, count: 24)

        var loopFilter = LoopFilterParameters()
        var cdef = CDEFParameters()
        var restoration = RestorationParameters()
        /// `TxMode` (§5.9.21): `ONLY_4X4`, `TX_MODE_LARGEST` or `TX_MODE_SELECT`.
        var txMode = AV1Tables.ONLY_4X4
        var reducedTxSet = false
        var filmGrain = FilmGrainParameters()
        /// The offset in the item's bytes just after the header's `byte_alignment()`, where
        /// `frame_obu()`'s tile group starts (§5.10).
        var endOffset = 0

        /// Parses the header at the start of `obu`'s payload (an `OBU_FRAME` or `OBU_FRAME_HEADER`).
        /// `limits` bounds `MiRows × MiCols` before any per-4×4 array is sized from it.
        init(_ bytes: [UInt8], _ obu: OBU, sequence: SequenceHeader, limits: DecodingLimits) throws(ImageDecodingError) {
            var reader = BitReader(bytes, obu.payload, obuType: obu.type)
            header = try FrameHeader(&reader, obu, sequence: sequence)
            self.sequence = sequence
            guard header.upscaledWidth <= limits.maxWidth, header.frameHeight <= limits.maxHeight,
                  header.upscaledWidth * header.frameHeight <= limits.maxPixelsPerFrame else {
                throw .limitExceeded(header.upscaledWidth > limits.maxWidth ? .width
                                     : header.frameHeight > limits.maxHeight ? .height : .pixelsPerFrame)
            }
            miCols = 2 * ((header.frameWidth + 7) >> 3)
            miRows = 2 * ((header.frameHeight + 7) >> 3)
            // reduced_still_picture_header or disable_cdf_update imply disable_frame_end_update_cdf.
            disableFrameEndUpdateCdf = sequence.hasReducedStillPictureHeader || header.disablesCDFUpdate
                ? true : try reader.flag()
            // primary_ref_frame is PRIMARY_REF_NONE: init_non_coeff_cdfs() and setup_past_independence().
            tiles = try TileInfo(&reader, miCols: miCols, miRows: miRows, use128: sequence.uses128x128Superblocks)
            try readQuantization(&reader)
            try readSegmentation(&reader)
            if baseQIdx > 0 { deltaQPresent = try reader.flag() }
            if deltaQPresent { deltaQRes = try reader.bits(2) }
            if deltaQPresent {
                if !header.allowsIntraBlockCopy { deltaLfPresent = try reader.flag() }
                if deltaLfPresent {
                    deltaLfRes = try reader.bits(2)
                    deltaLfMulti = try reader.flag()
                }
            }
            computeLossless()
            try loopFilter.read(&reader, frame: self)
            try cdef.read(&reader, frame: self)
            try restoration.read(&reader, frame: self)
            txMode = codedLossless ? AV1Tables.ONLY_4X4
                : try reader.flag() ? AV1Tables.TX_MODE_SELECT : AV1Tables.TX_MODE_LARGEST
            // frame_reference_mode(), skip_mode_params(), allow_warped_motion: absent for intra frames.
            reducedTxSet = try reader.flag()
            // global_motion_params(): nothing is read for an intra frame.
            if sequence.hasFilmGrain && (header.showsFrame || header.isShowable) {
                try filmGrain.read(&reader, frame: self)
            }
            reader.alignToByte()
            endOffset = reader.position >> 3
        }

        /// `quantization_params()` and `read_delta_q()` (§5.9.12, §5.9.13).
        private mutating func readQuantization(_ reader: inout BitReader) throws(ImageDecodingError) {
            func deltaQ(_ reader: inout BitReader) throws(ImageDecodingError) -> Int {
                try reader.flag() ? try reader.signed(7) : 0
            }
            baseQIdx = try reader.bits(8)
            deltaQYDc = try deltaQ(&reader)
            if numPlanes > 1 {
                let diffUVDelta = sequence.color.separateUVDeltaQ ? try reader.flag() : false
                deltaQUDc = try deltaQ(&reader)
                deltaQUAc = try deltaQ(&reader)
                if diffUVDelta {
                    deltaQVDc = try deltaQ(&reader)
                    deltaQVAc = try deltaQ(&reader)
                } else {
                    deltaQVDc = deltaQUDc
                    deltaQVAc = deltaQUAc
                }
            }
            usingQmatrix = try reader.flag()
            if usingQmatrix {
                qmY = try reader.bits(4)
                qmU = try reader.bits(4)
                qmV = sequence.color.separateUVDeltaQ ? try reader.bits(4) : qmU
            }
        }

        /// `segmentation_params()` (§5.9.14) with `primary_ref_frame` = `PRIMARY_REF_NONE`:
        /// update_map 1, temporal_update 0, update_data 1.
        private mutating func readSegmentation(_ reader: inout BitReader) throws(ImageDecodingError) {
            segmentationEnabled = try reader.flag()
            if segmentationEnabled {
                for i in 0..<AV1Tables.MAX_SEGMENTS {
                    for j in 0..<AV1Tables.SEG_LVL_MAX {
                        let enabled = try reader.flag()
                        featureEnabled[i * 8 + j] = enabled
                        var clippedValue = 0
                        if enabled {
                            let bitsToRead = AV1Tables.Segmentation_Feature_Bits[j]
                            let limit = AV1Tables.Segmentation_Feature_Max[j]
                            if AV1Tables.Segmentation_Feature_Signed[j] == 1 {
                                clippedValue = min(max(try reader.signed(1 + bitsToRead), -limit), limit)
                            } else {
                                clippedValue = min(max(try reader.bits(bitsToRead), 0), limit)
                            }
                        }
                        featureData[i * 8 + j] = clippedValue
                    }
                }
            }
            for i in 0..<AV1Tables.MAX_SEGMENTS {
                for j in 0..<AV1Tables.SEG_LVL_MAX where featureEnabled[i * 8 + j] {
                    lastActiveSegId = i
                    if j >= AV1Tables.SEG_LVL_REF_FRAME { segIdPreSkip = true }
                }
            }
        }

        /// `seg_feature_active_idx()` (§5.11.14).
        func segFeatureActive(_ segmentId: Int, _ feature: Int) -> Bool {
            segmentationEnabled && featureEnabled[segmentId * 8 + feature]
        }

        /// `get_qindex(ignoreDeltaQ, segmentId)` (§7.12.2) with `CurrentQIndex` passed in.
        func qindex(ignoreDeltaQ: Bool, segmentId: Int, currentQIndex: Int) -> Int {
            if segFeatureActive(segmentId, AV1Tables.SEG_LVL_ALT_Q) {
                let data = featureData[segmentId * 8 + AV1Tables.SEG_LVL_ALT_Q]
                var q = baseQIdx + data
                if !ignoreDeltaQ && deltaQPresent { q = currentQIndex + data }
                return min(max(q, 0), 255)
            }
            if !ignoreDeltaQ && deltaQPresent { return currentQIndex }
            return baseQIdx
        }

        /// The lossless arrays and `SegQMLevel` of `uncompressed_header()` (§5.9.2).
        private mutating func computeLossless() {
            codedLossless = true
            for segmentId in 0..<AV1Tables.MAX_SEGMENTS {
                let q = qindex(ignoreDeltaQ: true, segmentId: segmentId, currentQIndex: baseQIdx)
                let lossless = q == 0 && deltaQYDc == 0 && deltaQUAc == 0 && deltaQUDc == 0
                    && deltaQVAc == 0 && deltaQVDc == 0
                losslessArray[segmentId] = lossless
                if !lossless { codedLossless = false }
                if usingQmatrix {
                    segQMLevel[segmentId] = lossless ? 15 : qmY
                    segQMLevel[8 + segmentId] = lossless ? 15 : qmU
                    segQMLevel[16 + segmentId] = lossless ? 15 : qmV
                }
            }
            allLossless = codedLossless && header.frameWidth == header.upscaledWidth
        }
    }
}
