extension AVIF {
    /// The decoding process behind the tile syntax's seam (``AVIF/TileReconstructing``):
    /// each call of `transform_block()` (AV1 §5.11.35) runs the matching primitive on
    /// `CurrFrame` (``frame``) — intra prediction (§7.11.2), palette prediction (§7.11.4),
    /// chroma from luma (§7.11.5), intra block copy (§7.11.3), and the reconstruct process
    /// (§7.12.3, dequantization of §7.12.2 with the inverse transforms of §7.13.3).
    ///
    /// The working arrays (edges, prediction, coefficients, residual) are kept between
    /// calls, so a transform block allocates nothing.
    struct FrameReconstructor: TileReconstructing {
        /// `CurrFrame`: `MiCols × 4` by `MiRows × 4` luma samples plus a margin (see
        /// ``AVIF/AV1Frame/currentFrame(miCols:miRows:bitDepth:subsamplingX:subsamplingY:monochrome:)``).
        var frame: AV1Frame
        /// `using_qmatrix` of the frame header (§5.9.12).
        let usingQmatrix: Bool
        private var intra = IntraPredictor()
        private var transform = InverseTransform()
        /// The sizes intra block copy reads (§7.11.3.3), and its working arrays, allocated
        /// only for a frame with `allow_intrabc`.
        private let intraBlockCopyFrame: IntraBlockCopy.Frame
        private var intraBlockCopy: IntraBlockCopy?

        init(frame: AV1Frame, parameters: FrameParameters) {
            self.frame = frame
            usingQmatrix = parameters.usingQmatrix
            intraBlockCopyFrame = IntraBlockCopy.Frame(frameWidth: parameters.header.frameWidth,
                                                       frameHeight: parameters.header.frameHeight,
                                                       miCols: parameters.miCols, miRows: parameters.miRows)
        }

        /// `predict_intra()` (§7.11.2) with `maxX`, `maxY` of §7.11.2.1.
        mutating func predictIntra(_ r: IntraPredictionRequest) {
            guard r.plane >= 0 && r.plane < frame.planes.count else { return }
            let (maxX, maxY) = IntraPredictor.maxCoordinates(miCols: r.miCols, miRows: r.miRows, plane: r.plane,
                                                             subsamplingX: r.subX, subsamplingY: r.subY)
            let block = IntraPredictor.Block(plane: r.plane, x: r.x, y: r.y, log2W: r.log2W, log2H: r.log2H,
                                             haveLeft: r.haveLeft, haveAbove: r.haveAbove,
                                             haveAboveRight: r.haveAboveRight, haveBelowLeft: r.haveBelowLeft,
                                             mode: r.mode, angleDelta: r.angleDelta, useFilterIntra: r.useFilterIntra,
                                             filterIntraMode: r.filterIntraMode,
                                             enableIntraEdgeFilter: r.enableIntraEdgeFilter,
                                             filterType: r.filterType ? 1 : 0, maxX: maxX, maxY: maxY,
                                             bitDepth: frame.bitDepth)
            intra.predict(block, into: &frame.planes[r.plane])
        }

        /// `predict_palette()` (§7.11.4).
        mutating func predictPalette(plane: Int, startX: Int, startY: Int, x: Int, y: Int, txSz: Int,
                                     palette: [UInt16], colorMap: [UInt8], colorMapStride: Int) {
            guard plane >= 0 && plane < frame.planes.count else { return }
            IntraPredictor.predictPalette(into: &frame.planes[plane], startX: startX, startY: startY, x: x, y: y,
                                          txSz: txSz, palette: palette, colorMap: colorMap, mapStride: colorMapStride)
        }

        /// `predict_chroma_from_luma()` (§7.11.5), after the DC prediction of the same block.
        mutating func predictChromaFromLuma(plane: Int, startX: Int, startY: Int, txSz: Int, alpha: Int,
                                            maxLumaW: Int, maxLumaH: Int) {
            intra.predictChromaFromLuma(frame: &frame, plane: plane, startX: startX, startY: startY, txSz: txSz,
                                        alpha: alpha, maxLumaW: maxLumaW, maxLumaH: maxLumaH)
        }

        /// `reconstruct()` (§7.12.3): `dc_q`/`ac_q` of the block's indices (§7.12.2, the
        /// delta-q offsets already applied by the tile decoder), then the inverse transform and
        /// the addition of the residual.
        mutating func reconstruct(_ block: ResidualBlock) {
            guard block.plane >= 0 && block.plane < frame.planes.count else { return }
            // The block's own coefficients, read in place: dequantize counts the entries past
            // `count` as 0, so nothing is copied or cleared per block.
            let count = min(max(0, block.count), block.quant.count)
            let bitDepth = frame.bitDepth
            let q = InverseTransform.BlockQuantizer(dcQuant: Dequantizer.dc_q(block.dcQIndex, bitDepth: bitDepth),
                                                    acQuant: Dequantizer.ac_q(block.acQIndex, bitDepth: bitDepth),
                                                    usingQmatrix: usingQmatrix, qmLevel: block.qmLevel,
                                                    lossless: block.lossless, bitDepth: bitDepth)
            transform.reconstruct(into: &frame.planes[block.plane], plane: block.plane, x: block.x, y: block.y,
                                  txSz: block.txSz, txType: block.txType, quant: block.quant[0..<count], q)
        }

        /// `predict_inter()` of an intra block copy block (§7.11.3 with use_intrabc 1).
        mutating func predictIntraBlockCopy(plane: Int, x: Int, y: Int, width: Int, height: Int, mv: (row: Int, col: Int)) {
            // Moved out while it writes `frame`, so that `self` is not accessed twice at once; the
            // arrays move with it, nothing is copied.
            var copier = intraBlockCopy.take() ?? IntraBlockCopy()
            copier.predict(frame: &frame, plane: plane, x: x, y: y, w: width, h: height, mv: mv, intraBlockCopyFrame)
            intraBlockCopy = copier
        }
    }
}
