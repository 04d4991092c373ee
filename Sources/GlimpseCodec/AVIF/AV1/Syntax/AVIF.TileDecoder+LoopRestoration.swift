extension AVIF.TileDecoder {
    /// `read_lr(r, c, bSize)` (§5.11.57): the restoration units whose top-left lies in this superblock.
    mutating func readLr(_ r: Int, _ c: Int, _ bSize: Int) throws(ImageDecodingError) {
        if frame.header.allowsIntraBlockCopy { return }
        let w = T.Num_4x4_Blocks_Wide[bSize], h = T.Num_4x4_Blocks_High[bSize]
        for plane in 0..<numPlanes where frame.restoration.frameRestorationType[plane] != T.RESTORE_NONE {
            let subX = plane == 0 ? 0 : subsamplingX, subY = plane == 0 ? 0 : subsamplingY
            let unitSize = frame.restoration.loopRestorationSize[plane]
            let units = info.restorationUnits[plane]
            let unitRows = units.unitRows, unitCols = units.unitCols
            let unitRowStart = (r * (T.MI_SIZE >> subY) + unitSize - 1) / unitSize
            let unitRowEnd = min(unitRows, ((r + h) * (T.MI_SIZE >> subY) + unitSize - 1) / unitSize)
            let numerator: Int, denominator: Int
            if frame.header.superresDenominator != T.SUPERRES_NUM {
                numerator = (T.MI_SIZE >> subX) * frame.header.superresDenominator
                denominator = unitSize * T.SUPERRES_NUM
            } else {
                numerator = T.MI_SIZE >> subX
                denominator = unitSize
            }
            let unitColStart = (c * numerator + denominator - 1) / denominator
            let unitColEnd = min(unitCols, ((c + w) * numerator + denominator - 1) / denominator)
            guard unitRowStart < unitRowEnd, unitColStart < unitColEnd else { continue }
            for unitRow in unitRowStart..<unitRowEnd {
                for unitCol in unitColStart..<unitColEnd {
                    readLrUnit(plane, unitRow * unitCols + unitCol)
                }
            }
        }
    }

    /// `read_lr_unit(plane, unitRow, unitCol)` (§5.11.58).
    private mutating func readLrUnit(_ plane: Int, _ unit: Int) {
        let frameType = frame.restoration.frameRestorationType[plane]
        let restorationType: Int
        if frameType == T.RESTORE_WIENER {
            restorationType = sd.symbol(cdfs.useWiener.at(), 2) == 1 ? T.RESTORE_WIENER : T.RESTORE_NONE
        } else if frameType == T.RESTORE_SGRPROJ {
            restorationType = sd.symbol(cdfs.useSgrproj.at(), 2) == 1 ? T.RESTORE_SGRPROJ : T.RESTORE_NONE
        } else {
            restorationType = sd.symbol(cdfs.restorationType.at(), T.RESTORE_SWITCHABLE)
        }
        info.restorationUnits[plane].type[unit] = UInt8(restorationType)
        if restorationType == T.RESTORE_WIENER {
            for pass in 0..<2 {
                let firstCoeff: Int
                if plane > 0 {
                    firstCoeff = 1
                    info.restorationUnits[plane].wiener[unit * 6 + pass * 3] = 0
                } else {
                    firstCoeff = 0
                }
                for j in firstCoeff..<3 {
                    let min = T.Wiener_Taps_Min[j], max = T.Wiener_Taps_Max[j], k = T.Wiener_Taps_K[j]
                    let v = decodeSignedSubexpWithRefBool(min, max + 1, k, refLrWiener[plane * 6 + pass * 3 + j])
                    info.restorationUnits[plane].wiener[unit * 6 + pass * 3 + j] = Int8(v)
                    refLrWiener[plane * 6 + pass * 3 + j] = v
                }
            }
        } else if restorationType == T.RESTORE_SGRPROJ {
            let set = sd.literal(T.SGRPROJ_PARAMS_BITS)
            info.restorationUnits[plane].sgrSet[unit] = UInt8(set)
            for i in 0..<2 {
                let radius = T.Sgr_Params[set][i * 2]
                let min = T.Sgrproj_Xqd_Min[i], max = T.Sgrproj_Xqd_Max[i]
                var v = 0
                if radius != 0 {
                    v = decodeSignedSubexpWithRefBool(min, max + 1, T.SGRPROJ_PRJ_SUBEXP_K, refSgrXqd[plane * 2 + i])
                } else if i == 1 {
                    v = Swift.min(Swift.max((1 << T.SGRPROJ_PRJ_BITS) - refSgrXqd[plane * 2], min), max)
                }
                info.restorationUnits[plane].sgrXqd[unit * 2 + i] = Int16(v)
                refSgrXqd[plane * 2 + i] = v
            }
        }
    }

    /// `decode_signed_subexp_with_ref_bool(low, high, k, r)` (§5.11.58).
    private mutating func decodeSignedSubexpWithRefBool(_ low: Int, _ high: Int, _ k: Int, _ r: Int) -> Int {
        decodeUnsignedSubexpWithRefBool(high - low, k, r - low) + low
    }

    private mutating func decodeUnsignedSubexpWithRefBool(_ mx: Int, _ k: Int, _ r: Int) -> Int {
        let v = decodeSubexpBool(mx, k)
        if (r << 1) <= mx { return Self.inverseRecenter(r, v) }
        return mx - 1 - Self.inverseRecenter(mx - 1 - r, v)
    }

    private mutating func decodeSubexpBool(_ numSyms: Int, _ k: Int) -> Int {
        var i = 0, mk = 0
        while true {
            let b2 = i != 0 ? k + i - 1 : k
            let a = 1 << b2
            if numSyms <= mk + 3 * a {
                return sd.nonSymmetric(numSyms - mk) + mk
            }
            if sd.literal(1) == 1 {  // subexp_more_bools
                i += 1
                mk += a
            } else {
                return sd.literal(b2) + mk
            }
        }
    }

    /// `inverse_recenter(r, v)` (§5.9.28).
    static func inverseRecenter(_ r: Int, _ v: Int) -> Int {
        if v > 2 * r { return v }
        if v & 1 == 1 { return r - ((v + 1) >> 1) }
        return r + (v >> 1)
    }
}
