extension JPEG {
    /// The geometry of a frame at the requested scale: MCUs, blocks, the
    /// sample planes the IDCT writes and how each plane is upsampled, following
    /// libjpeg-turbo's choices (`jpeg_calc_output_dimensions`, `jinit_upsampler`)
    /// so that the output matches it.
    struct Layout: Sendable {
        /// How a component's samples reach full output resolution.
        enum Upsampling: Sendable, Hashable {
            case none
            /// Triangle filter 2:1 horizontally.
            case h2v1Fancy
            /// Triangle filter 2:1 vertically.
            case h1v2Fancy
            /// Triangle filter 2:1 both ways.
            case h2v2Fancy
            /// Replication by whole factors.
            case replicate(h: Int, v: Int)
        }

        struct Component: Sendable {
            var h: Int
            var v: Int
            /// Side of the IDCT output per block (8 unscaled; 4, 2, 1 when scaled).
            var blockSize: Int
            /// Blocks per row and column, padded to whole MCUs.
            var blocksPerLine: Int
            var blocksPerColumn: Int
            /// Blocks actually coded in a scan of this component alone (T.81 §A.2.2).
            var scanBlocksX: Int
            var scanBlocksY: Int
            /// Samples that carry image data, after scaling.
            var sampleWidth: Int
            var sampleHeight: Int
            /// Where this component's plane starts in the shared sample storage.
            var planeOffset: Int
            var planeStride: Int
            /// Rows of the whole plane (padded to MCUs).
            var planeHeight: Int
            /// When non-zero the plane is a ring of this many rows (two MCU rows):
            /// row `r` lives at `r % ringRows`.
            var ringRows = 0
            /// Where this component's coefficients start (progressive frames).
            var coefficientOffset: Int
            /// Coefficients stored per block: 64, or 1 when only DC can reach the
            /// output (``withDCOnlyCoefficients()``).
            var coefficientStride = 64
            var upsampling: Upsampling
        }

        var width: Int
        var height: Int
        var outputWidth: Int
        var outputHeight: Int
        var maxH: Int
        var maxV: Int
        var mcusX: Int
        var mcusY: Int
        var components: [Component]
        var planeBytes: Int
        var coefficientCount: Int

        init(frame: FrameHeader, scale: Int) throws(ImageDecodingError) {
            width = frame.width
            height = frame.height
            maxH = frame.maxH
            maxV = frame.maxV
            let minSize = 8 / scale
            outputWidth = (width * minSize + 7) / 8
            outputHeight = (height * minSize + 7) / 8
            mcusX = (width + 8 * maxH - 1) / (8 * maxH)
            mcusY = (height + 8 * maxV - 1) / (8 * maxV)
            let doFancy = minSize > 1
            var components: [Component] = []
            var planeBytes = 0
            var coefficients = 0
            for c in frame.components {
                // libjpeg scales chroma up through the IDCT instead of upsampling it when the
                // factors allow (a power-of-two ratio that fits in an 8x8 IDCT).
                var size = minSize
                while size < 8 && (maxH * minSize) % (c.h * size * 2) == 0 && (maxV * minSize) % (c.v * size * 2) == 0 {
                    size *= 2
                }
                let componentWidth = (width * c.h + maxH - 1) / maxH
                let componentHeight = (height * c.v + maxV - 1) / maxV
                let sampleWidth = (width * c.h * size + maxH * 8 - 1) / (maxH * 8)
                let sampleHeight = (height * c.v * size + maxV * 8 - 1) / (maxV * 8)
                let blocksPerLine = mcusX * c.h
                let blocksPerColumn = mcusY * c.v
                let hIn = c.h * size / minSize, vIn = c.v * size / minSize
                let upsampling: Upsampling
                if hIn == maxH && vIn == maxV {
                    upsampling = .none
                } else if hIn * 2 == maxH && vIn == maxV {
                    upsampling = doFancy && sampleWidth > 2 ? .h2v1Fancy : .replicate(h: 2, v: 1)
                } else if hIn == maxH && vIn * 2 == maxV && doFancy {
                    upsampling = .h1v2Fancy
                } else if hIn * 2 == maxH && vIn * 2 == maxV {
                    upsampling = doFancy && sampleWidth > 2 ? .h2v2Fancy : .replicate(h: 2, v: 2)
                } else if maxH % hIn == 0 && maxV % vIn == 0 {
                    upsampling = .replicate(h: maxH / hIn, v: maxV / vIn)
                } else {
                    throw .unsupported(.jpegFractionalSampling(horizontal: c.h, vertical: c.v, maxHorizontal: maxH, maxVertical: maxV))
                }
                let stride = blocksPerLine * size
                let rows = blocksPerColumn * size
                components.append(Component(
                    h: c.h, v: c.v, blockSize: size,
                    blocksPerLine: blocksPerLine, blocksPerColumn: blocksPerColumn,
                    scanBlocksX: (componentWidth + 7) / 8, scanBlocksY: (componentHeight + 7) / 8,
                    sampleWidth: sampleWidth, sampleHeight: sampleHeight,
                    planeOffset: planeBytes, planeStride: stride, planeHeight: rows,
                    coefficientOffset: coefficients, upsampling: upsampling))
                planeBytes += stride * rows
                coefficients += blocksPerLine * blocksPerColumn * 64
            }
            self.components = components
            self.planeBytes = planeBytes
            self.coefficientCount = coefficients
        }

        /// The same layout with one coefficient per block for each component whose
        /// blocks become single samples (1/8 scale): the DC is all a 1×1 inverse DCT
        /// reads, so a progressive frame whose AC scans are skipped for those components
        /// (``DecodingOptions/skipsUnusedScans``) need not hold 63 zeros a block. For a
        /// 5120×2880 4:2:0 file the store goes from 44 MB to 15 MB; for 4:4:4, to 1/64.
        func withDCOnlyCoefficients() -> Layout {
            var layout = self
            var offset = 0
            for c in layout.components.indices {
                let component = layout.components[c]
                let stride = component.blockSize == 1 ? 1 : 64
                layout.components[c].coefficientStride = stride
                layout.components[c].coefficientOffset = offset
                offset += component.blocksPerLine * component.blocksPerColumn * stride
            }
            layout.coefficientCount = offset
            return layout
        }

        /// The same layout with each plane reduced to a ring of two MCU rows, for
        /// a sequential frame coded in one interleaved scan: rows are upsampled
        /// and converted as soon as they are decoded, so the output plus about
        /// two MCU rows is all the memory the decode holds.
        func withRingPlanes() -> Layout {
            var layout = self
            var offset = 0
            for c in layout.components.indices {
                let rows = 2 * layout.components[c].v * layout.components[c].blockSize
                layout.components[c].ringRows = rows
                layout.components[c].planeOffset = offset
                offset += rows * layout.components[c].planeStride
            }
            layout.planeBytes = offset
            return layout
        }

        /// How many output rows can be produced once component `c` has
        /// `rows` plane rows decoded.
        func outputRowsReady(component c: Int, planeRows rows: Int) -> Int {
            let component = components[c]
            if rows >= component.sampleHeight { return outputHeight }
            switch component.upsampling {
            case .none, .h2v1Fancy:
                return rows
            case .h1v2Fancy, .h2v2Fancy:
                // Each output row also needs the plane row below its own.
                return max(0, 2 * rows - 2)
            case .replicate(_, let v):
                return rows * v
            }
        }
    }
}
