extension AVIF {
    /// Decodes the first frame of an `av01` item to its output planes: every tile through
    /// ``AVIF/FrameReconstructor`` (AV1 §5.11 with §7.11–§7.13), then the frame-level steps of
    /// `decode_frame_wrapup()` (§7.4) in their order — the loop filter (§7.14) on `CurrFrame`,
    /// CDEF (§7.15) into `CdefFrame`, super-resolution (§7.16) of both, loop restoration
    /// (§7.17) from `UpscaledCdefFrame` and `UpscaledCurrFrame` into `LrFrame` — and the
    /// output process (§7.18): `UpscaledWidth × FrameHeight` samples, with film grain
    /// (§7.18.3) when `apply_grain` is 1 and ``applyFilmGrain`` is set.
    enum FrameDecoder {
        /// Bytes per luma sample of the frames held at once (CurrFrame, CdefFrame, LrFrame and
        /// the output, 2 bytes a sample, chroma at most as large as luma twice).
        private static let bytesPerLumaSample = 4 * 2 * 3

        static func decode(_ data: [UInt8], sequence: SequenceHeader, limits: DecodingLimits,
                           applyFilmGrain: Bool = true) throws(ImageDecodingError) -> DecodedPlanes {
            let units = try OBU.split(data, 0..<data.count)
            guard let headerOBU = units.first(where: { $0.kind == .frame || $0.kind == .frameHeader }) else {
                throw .avif(.missingFrameHeader)
            }
            let parameters = try FrameParameters(data, headerOBU, sequence: sequence, limits: limits)
            // The frame buffers, checked before they are allocated.
            let lumaW = parameters.miCols &* AV1Tables.MI_SIZE &+ 64
            let lumaH = parameters.miRows &* AV1Tables.MI_SIZE &+ 64
            let (samples, overflow) = max(lumaW, parameters.header.upscaledWidth &+ 64).multipliedReportingOverflow(by: lumaH)
            let (bytes, overflow2) = samples.multipliedReportingOverflow(by: bytesPerLumaSample)
            guard !overflow, !overflow2, bytes <= limits.maxTotalBytes else { throw .limitExceeded(.totalBytes) }
            let color = sequence.color
            let current = AV1Frame.currentFrame(miCols: parameters.miCols, miRows: parameters.miRows,
                                                bitDepth: color.bitDepth, subsamplingX: parameters.subsamplingX,
                                                subsamplingY: parameters.subsamplingY, monochrome: color.isMonochrome)
            let (frame, info, reconstructor) = try FrameParser.parse(
                data, sequence: sequence, limits: limits,
                reconstructor: FrameReconstructor(frame: current, parameters: parameters))
            var currFrame = reconstructor.frame
            let header = frame.header

            // 1. The loop filter (§7.14), modifying CurrFrame.
            if frame.loopFilter.level[0] != 0 || frame.loopFilter.level[1] != 0 {
                LoopFilter.apply(to: &currFrame, modeInfo: info, loopFilterParameters(frame))
            }
            // 2. CDEF (§7.15): CdefFrame. With CDEF off every cdef_idx is −1 and CdefFrame is CurrFrame.
            var cdefFrame = currFrame
            if !frame.cdef.isDisabled {
                let c = frame.cdef
                cdefFrame = CDEF.apply(currFrame: currFrame, modeInfo: info,
                                       CDEF.Parameters(cdefDamping: c.damping, cdefYPriStrength: c.yPrimaryStrength,
                                                       cdefYSecStrength: c.ySecondaryStrength,
                                                       cdefUVPriStrength: c.uvPrimaryStrength,
                                                       cdefUVSecStrength: c.uvSecondaryStrength,
                                                       miRows: frame.miRows, miCols: frame.miCols))
            }
            // 3, 4. Super-resolution (§7.16) of CdefFrame and CurrFrame.
            if header.frameWidth != header.upscaledWidth {
                cdefFrame = SuperResolution.upscale(cdefFrame, frameWidth: header.frameWidth,
                                                    upscaledWidth: header.upscaledWidth,
                                                    frameHeight: header.frameHeight, miCols: frame.miCols)
                currFrame = SuperResolution.upscale(currFrame, frameWidth: header.frameWidth,
                                                    upscaledWidth: header.upscaledWidth,
                                                    frameHeight: header.frameHeight, miCols: frame.miCols)
            }
            // 5. Loop restoration (§7.17): LrFrame.
            var lrFrame = cdefFrame
            if frame.restoration.usesLr {
                var restoration = LoopRestoration()
                lrFrame = restoration.apply(currFrame: currFrame, cdefFrame: cdefFrame,
                                            restorationParameters(frame, info))
            }
            // The output process (§7.18.2): UpscaledWidth × FrameHeight.
            var output = crop(lrFrame, width: header.upscaledWidth, height: header.frameHeight)
            if applyFilmGrain && frame.filmGrain.applyGrain {
                FilmGrain.apply(to: &output, width: header.upscaledWidth, height: header.frameHeight,
                                filmGrainParameters(frame.filmGrain), monochrome: color.isMonochrome,
                                matrixCoefficientsIdentity: color.codePoints.matrixCoefficients == 0)
            }
            return DecodedPlanes(output, width: header.upscaledWidth, height: header.frameHeight,
                                 isFullRange: color.codePoints.isFullRange)
        }

        /// The output arrays OutY, OutU, OutV of §7.18.2: the top-left w × h luma samples and
        /// ( w + subX ) >> subX × ( h + subY ) >> subY chroma samples.
        static func crop(_ frame: AV1Frame, width: Int, height: Int) -> AV1Frame {
            var output = AV1Frame(lumaWidth: width, lumaHeight: height, bitDepth: frame.bitDepth,
                                  subsamplingX: frame.subsamplingX, subsamplingY: frame.subsamplingY,
                                  monochrome: frame.numPlanes == 1)
            for plane in 0..<output.numPlanes {
                let w = output.planes[plane].width, h = output.planes[plane].height
                let source = frame.planes[plane]
                if source.width >= w && source.height >= h {
                    for y in 0..<h {
                        let from = y &* source.stride
                        output.planes[plane].samples.replaceSubrange(y &* w..<(y &* w &+ w),
                                                                     with: source.samples[from..<(from &+ w)])
                    }
                } else {
                    for y in 0..<h { for x in 0..<w { output.planes[plane][y: y, x: x] = source[y: y, x: x] } }
                }
            }
            return output
        }

        /// The header values §7.14 reads.
        static func loopFilterParameters(_ frame: FrameParameters) -> LoopFilter.Parameters {
            let lf = frame.loopFilter
            var enabled: [[Bool]] = [], data: [[Int]] = []
            for segment in 0..<AV1Tables.MAX_SEGMENTS {
                enabled.append(Array(frame.featureEnabled[(segment * 8)..<(segment * 8 + 8)]))
                data.append(Array(frame.featureData[(segment * 8)..<(segment * 8 + 8)]))
            }
            return LoopFilter.Parameters(loopFilterLevel: lf.level, loopFilterSharpness: lf.sharpness,
                                         loopFilterDeltaEnabled: lf.deltaEnabled, loopFilterRefDeltas: lf.refDeltas,
                                         loopFilterModeDeltas: lf.modeDeltas, deltaLFMulti: frame.deltaLfMulti,
                                         segmentationEnabled: frame.segmentationEnabled, featureEnabled: enabled,
                                         featureData: data, frameWidth: frame.header.frameWidth,
                                         frameHeight: frame.header.frameHeight, miRows: frame.miRows,
                                         miCols: frame.miCols)
        }

        /// `lr_params()` with the units `read_lr_unit()` decoded.
        static func restorationParameters(_ frame: FrameParameters, _ info: FrameModeInfo) -> LoopRestoration.Parameters {
            var planes: [LoopRestoration.PlaneUnits] = []
            for plane in 0..<frame.numPlanes {
                let units = info.restorationUnits[plane]
                planes.append(LoopRestoration.PlaneUnits(
                    frameRestorationType: frame.restoration.frameRestorationType[plane],
                    loopRestorationSize: frame.restoration.loopRestorationSize[plane],
                    lrType: units.type.map { Int($0) }, lrWiener: units.wiener.map { Int($0) },
                    lrSgrSet: units.sgrSet.map { Int($0) }, lrSgrXqd: units.sgrXqd.map { Int($0) }))
            }
            return LoopRestoration.Parameters(frameHeight: frame.header.frameHeight,
                                              upscaledWidth: frame.header.upscaledWidth, planes: planes)
        }

        /// `film_grain_params()` for §7.18.3.
        static func filmGrainParameters(_ g: FilmGrainParameters) -> FilmGrain.Parameters {
            var p = FilmGrain.Parameters(grainSeed: g.grainSeed)
            p.pointYValue = g.pointYValue
            p.pointYScaling = g.pointYScaling
            p.chromaScalingFromLuma = g.chromaScalingFromLuma
            p.pointCbValue = g.pointCbValue
            p.pointCbScaling = g.pointCbScaling
            p.pointCrValue = g.pointCrValue
            p.pointCrScaling = g.pointCrScaling
            p.grainScalingMinus8 = g.grainScalingMinus8
            p.arCoeffLag = g.arCoeffLag
            p.arCoeffsYPlus128 = g.arCoeffsYPlus128
            p.arCoeffsCbPlus128 = g.arCoeffsCbPlus128
            p.arCoeffsCrPlus128 = g.arCoeffsCrPlus128
            p.arCoeffShiftMinus6 = g.arCoeffShiftMinus6
            p.grainScaleShift = g.grainScaleShift
            p.cbMult = g.cbMult
            p.cbLumaMult = g.cbLumaMult
            p.cbOffset = g.cbOffset
            p.crMult = g.crMult
            p.crLumaMult = g.crLumaMult
            p.crOffset = g.crOffset
            p.overlapFlag = g.overlapFlag
            p.clipToRestrictedRange = g.clipToRestrictedRange
            return p
        }
    }
}
