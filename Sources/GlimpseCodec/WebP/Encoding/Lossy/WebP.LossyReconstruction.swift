/// What a decoder reconstructs from an encoded frame: the encoder's own
/// (unfiltered) reconstruction planes, then the loop filter and the colour
/// conversion exactly as ``WebP/LossyFrameDecoder`` applies them. It exists to
/// check the encoder against the decoder; encoding does not need it.
extension WebP {
    struct LossyReconstruction {
        let width: Int
        let height: Int
        let columns: Int
        /// Padded planes (16 × columns wide), as predicted from.
        var y: [UInt8]
        var u: [UInt8]
        var v: [UInt8]
        /// Per macroblock: the loop-filter level (its segment's), 0 for none.
        let filterLevels: [Int]
        /// Per macroblock: whether the inner edges are filtered.
        let filtersInnerEdges: [Bool]

        /// The frame as RGBA8, filtered and converted as the decoder does it.
        func rgba() -> [UInt8] {
            var y = self.y, u = self.u, v = self.v
            let lumaStride = columns * 16, chromaStride = columns * 8
            let rows = y.count / (lumaStride * 16)
            y.withUnsafeMutableBufferPointer { yBuffer in
                u.withUnsafeMutableBufferPointer { uBuffer in
                    v.withUnsafeMutableBufferPointer { vBuffer in
                        guard let yBase = yBuffer.baseAddress, let uBase = uBuffer.baseAddress,
                              let vBase = vBuffer.baseAddress else { return }
                        filter(yBase, uBase, vBase, lumaStride: lumaStride, chromaStride: chromaStride, rows: rows)
                    }
                }
            }
            var output = [UInt8](repeating: 0, count: width * height * 4)
            let chromaHeight = (height + 1) >> 1
            let scratchBytes = LossyUpsampler.scratchBytes(width: width)
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: 2 * scratchBytes, alignment: 16)
            defer { scratch.deallocate() }
            scratch.initializeMemory(as: UInt8.self, repeating: 0, count: 2 * scratchBytes)
            y.withUnsafeBufferPointer { yBuffer in
                u.withUnsafeBufferPointer { uBuffer in
                    v.withUnsafeBufferPointer { vBuffer in
                        output.withUnsafeMutableBufferPointer { outBuffer in
                            guard let yBase = yBuffer.baseAddress, let uBase = uBuffer.baseAddress,
                                  let vBase = vBuffer.baseAddress, let out = outBuffer.baseAddress else { return }
                            for row in 0..<height {
                                let (near, far) = LossyUpsampler.chromaRows(forLumaRow: row, chromaHeight: chromaHeight)
                                LossyUpsampler.convertRow(y: yBase + row * lumaStride,
                                                          nearU: uBase + near * chromaStride, nearV: vBase + near * chromaStride,
                                                          farU: uBase + far * chromaStride, farV: vBase + far * chromaStride,
                                                          dst: out + row * width * 4, width: width,
                                                          scratchU: scratch, scratchV: scratch + scratchBytes)
                            }
                        }
                    }
                }
            }
            return output
        }

        /// The normal loop filter over every macroblock in raster order (RFC 6386 §15.3,
        /// the decoder's `filterRow`), sharpness 0, each macroblock at its own level.
        private func filter(_ yPlane: UnsafeMutablePointer<UInt8>, _ uPlane: UnsafeMutablePointer<UInt8>,
                            _ vPlane: UnsafeMutablePointer<UInt8>, lumaStride ys: Int, chromaStride cs: Int, rows: Int) {
            typealias F = LossyEdgeFilter
            for mbY in 0..<rows {
                for mbX in 0..<columns {
                    let level = filterLevels[mbY * columns + mbX]
                    guard level > 0 else { continue }
                    let interior = Int32(level)
                    let limit = Int32(2 * level) + interior
                    let hev: Int32 = level >= 40 ? 2 : level >= 15 ? 1 : 0
                    let y = yPlane + (mbY * 16 * ys + mbX * 16)
                    let u = uPlane + (mbY * 8 * cs + mbX * 8), v = vPlane + (mbY * 8 * cs + mbX * 8)
                    F.normalMacroblock(y: y, u: u, v: v, lumaStride: ys, chromaStride: cs, limit: limit,
                                       interior: interior, hevThreshold: hev, hasLeft: mbX > 0, hasTop: mbY > 0,
                                       filtersInnerEdges: filtersInnerEdges[mbY * columns + mbX])
                }
            }
        }
    }
}
