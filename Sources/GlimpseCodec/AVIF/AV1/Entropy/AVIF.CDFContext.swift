extension AVIF {
    /// The CDF arrays an intra frame's tiles use (AV1 §8.3; their defaults §10.3 via
    /// ``AVIF/AV1Tables``): where each lies in one flat pool, and the pool's initial values —
    /// `init_non_coeff_cdfs()` followed by `init_coeff_cdfs()` for each of the four
    /// `base_q_idx` classes (semantics §6.8.2). Inter-only CDFs (references, compound, OBMC,
    /// inter modes…) are left out: an intra frame never reads them.
    struct CDFContext: Sendable {
        // Non-coefficient CDFs (init_non_coeff_cdfs).
        let intraFrameYMode: CDFTable, uvModeCflNotAllowed: CDFTable, uvModeCflAllowed: CDFTable
        let angleDelta: CDFTable, intrabc: CDFTable
        /// `TilePartitionW8Cdf` … `TilePartitionW128Cdf`, indexed by `bsl - 1`.
        let partition: [CDFTable]
        let segmentId: CDFTable
        /// `TileTx8x8Cdf` … `TileTx64x64Cdf`, indexed by `maxTxDepth` clamped to 1…4, minus 1.
        let tx: [CDFTable]
        let filterIntraMode: CDFTable, filterIntra: CDFTable
        let skip: CDFTable
        let paletteYMode: CDFTable, paletteUVMode: CDFTable, paletteYSize: CDFTable, paletteUVSize: CDFTable
        /// `TilePaletteSize{2…8}YColorCdf` and `…UVColorCdf`, indexed by size − 2.
        let paletteYColor: [CDFTable], paletteUVColor: [CDFTable]
        let deltaQ: CDFTable, deltaLF: CDFTable
        /// `TileDeltaLFMultiCdf[i]`, i < FRAME_LF_COUNT.
        let deltaLFMulti: [CDFTable]
        let intraTxTypeSet1: CDFTable, intraTxTypeSet2: CDFTable
        let cflSign: CDFTable, cflAlpha: CDFTable
        let useWiener: CDFTable, useSgrproj: CDFTable, restorationType: CDFTable
        // What intra block copy reads (an intra frame's only inter-like blocks): the motion
        // vector CDFs of MvCtx = MV_INTRABC_CONTEXT, indexed by comp; var-tx and inter tx types.
        let mvJoint: CDFTable, mvSign: CDFTable, mvClass: CDFTable, mvClass0Bit: CDFTable
        /// `MvBitCdf[MV_INTRABC_CONTEXT][comp][i]`.
        let mvBit: CDFTable
        let txfmSplit: CDFTable
        let interTxTypeSet1: CDFTable, interTxTypeSet2: CDFTable, interTxTypeSet3: CDFTable
        // Coefficient CDFs (init_coeff_cdfs).
        let txbSkip: CDFTable
        /// `TileEobPt16Cdf` … `TileEobPt1024Cdf`, indexed by `eobMultisize`.
        let eobPt: [CDFTable]
        let eobExtra: CDFTable, dcSign: CDFTable, coeffBaseEob: CDFTable, coeffBase: CDFTable, coeffBr: CDFTable
        /// The initial pool for each coefficient context `idx` (0–3) of `init_coeff_cdfs()`.
        let defaults: [[UInt16]]

        static let shared = CDFContext()

        /// `idx` of `init_coeff_cdfs()` (§6.8.2).
        static func coefficientContext(baseQIdx: Int) -> Int {
            baseQIdx <= 20 ? 0 : baseQIdx <= 60 ? 1 : baseQIdx <= 120 ? 2 : 3
        }

        private init() {
            typealias T = AV1Tables
            var b = CDFTable.Builder()
            intraFrameYMode = b.add(T.Default_Intra_Frame_Y_Mode_Cdf)
            uvModeCflNotAllowed = b.add(T.Default_Uv_Mode_Cfl_Not_Allowed_Cdf)
            uvModeCflAllowed = b.add(T.Default_Uv_Mode_Cfl_Allowed_Cdf)
            angleDelta = b.add(T.Default_Angle_Delta_Cdf)
            intrabc = b.add(T.Default_Intrabc_Cdf)
            partition = [b.add(T.Default_Partition_W8_Cdf), b.add(T.Default_Partition_W16_Cdf),
                         b.add(T.Default_Partition_W32_Cdf), b.add(T.Default_Partition_W64_Cdf),
                         b.add(T.Default_Partition_W128_Cdf)]
            segmentId = b.add(T.Default_Segment_Id_Cdf)
            tx = [b.add(T.Default_Tx_8x8_Cdf), b.add(T.Default_Tx_16x16_Cdf), b.add(T.Default_Tx_32x32_Cdf),
                  b.add(T.Default_Tx_64x64_Cdf)]
            filterIntraMode = b.add(T.Default_Filter_Intra_Mode_Cdf)
            filterIntra = b.add(T.Default_Filter_Intra_Cdf)
            skip = b.add(T.Default_Skip_Cdf)
            paletteYMode = b.add(T.Default_Palette_Y_Mode_Cdf)
            paletteUVMode = b.add(T.Default_Palette_Uv_Mode_Cdf)
            paletteYSize = b.add(T.Default_Palette_Y_Size_Cdf)
            paletteUVSize = b.add(T.Default_Palette_Uv_Size_Cdf)
            paletteYColor = [b.add(T.Default_Palette_Size_2_Y_Color_Cdf), b.add(T.Default_Palette_Size_3_Y_Color_Cdf),
                             b.add(T.Default_Palette_Size_4_Y_Color_Cdf), b.add(T.Default_Palette_Size_5_Y_Color_Cdf),
                             b.add(T.Default_Palette_Size_6_Y_Color_Cdf), b.add(T.Default_Palette_Size_7_Y_Color_Cdf),
                             b.add(T.Default_Palette_Size_8_Y_Color_Cdf)]
            paletteUVColor = [b.add(T.Default_Palette_Size_2_Uv_Color_Cdf), b.add(T.Default_Palette_Size_3_Uv_Color_Cdf),
                              b.add(T.Default_Palette_Size_4_Uv_Color_Cdf), b.add(T.Default_Palette_Size_5_Uv_Color_Cdf),
                              b.add(T.Default_Palette_Size_6_Uv_Color_Cdf), b.add(T.Default_Palette_Size_7_Uv_Color_Cdf),
                              b.add(T.Default_Palette_Size_8_Uv_Color_Cdf)]
            deltaQ = b.add(T.Default_Delta_Q_Cdf)
            deltaLF = b.add(T.Default_Delta_Lf_Cdf)
            deltaLFMulti = (0..<T.FRAME_LF_COUNT).map { _ in b.add(T.Default_Delta_Lf_Cdf) }
            intraTxTypeSet1 = b.add(T.Default_Intra_Tx_Type_Set1_Cdf)
            intraTxTypeSet2 = b.add(T.Default_Intra_Tx_Type_Set2_Cdf)
            cflSign = b.add(T.Default_Cfl_Sign_Cdf)
            cflAlpha = b.add(T.Default_Cfl_Alpha_Cdf)
            useWiener = b.add(T.Default_Use_Wiener_Cdf)
            useSgrproj = b.add(T.Default_Use_Sgrproj_Cdf)
            restorationType = b.add(T.Default_Restoration_Type_Cdf)
            mvJoint = b.add(T.Default_Mv_Joint_Cdf)
            mvSign = b.add([T.Default_Mv_Sign_Cdf, T.Default_Mv_Sign_Cdf])
            mvClass = b.add(T.Default_Mv_Class_Cdf)
            mvClass0Bit = b.add([T.Default_Mv_Class0_Bit_Cdf, T.Default_Mv_Class0_Bit_Cdf])
            mvBit = b.add([T.Default_Mv_Bit_Cdf, T.Default_Mv_Bit_Cdf])
            txfmSplit = b.add(T.Default_Txfm_Split_Cdf)
            interTxTypeSet1 = b.add(T.Default_Inter_Tx_Type_Set1_Cdf)
            interTxTypeSet2 = b.add(T.Default_Inter_Tx_Type_Set2_Cdf)
            interTxTypeSet3 = b.add(T.Default_Inter_Tx_Type_Set3_Cdf)
            let nonCoefficient = b.pool
            // The coefficient CDFs follow; the layout is the same for every idx.
            func coefficients(_ q: Int, _ b: inout CDFTable.Builder) -> (CDFTable, [CDFTable], CDFTable, CDFTable, CDFTable, CDFTable, CDFTable) {
                let txbSkip = b.add(T.Default_Txb_Skip_Cdf[q])
                let eobPt = [b.add(T.Default_Eob_Pt_16_Cdf[q]), b.add(T.Default_Eob_Pt_32_Cdf[q]),
                             b.add(T.Default_Eob_Pt_64_Cdf[q]), b.add(T.Default_Eob_Pt_128_Cdf[q]),
                             b.add(T.Default_Eob_Pt_256_Cdf[q]), b.add(T.Default_Eob_Pt_512_Cdf[q]),
                             b.add(T.Default_Eob_Pt_1024_Cdf[q])]
                return (txbSkip, eobPt, b.add(T.Default_Eob_Extra_Cdf[q]), b.add(T.Default_Dc_Sign_Cdf[q]),
                        b.add(T.Default_Coeff_Base_Eob_Cdf[q]), b.add(T.Default_Coeff_Base_Cdf[q]),
                        b.add(T.Default_Coeff_Br_Cdf[q]))
            }
            (txbSkip, eobPt, eobExtra, dcSign, coeffBaseEob, coeffBase, coeffBr) = coefficients(0, &b)
            var pools = [b.pool]
            for q in 1..<T.COEFF_CDF_Q_CTXS {
                var other = CDFTable.Builder(pool: nonCoefficient)
                _ = coefficients(q, &other)
                pools.append(other.pool)
            }
            defaults = pools
        }
    }
}
