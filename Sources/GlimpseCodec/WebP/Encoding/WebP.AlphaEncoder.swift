/// Writes the `ALPH` chunk of a lossy image (RFC 9649 §2.7.1.4): the alpha plane,
/// level-reduced below quality 100 (pre-processing 1, ``WebP/AlphaLevelReduction``),
/// spatially filtered, compressed as a headerless VP8L image whose green channel
/// holds the values (method 1). At quality 100 the values are exact, as
/// `cwebp -alpha_q 100`.
extension WebP {
    enum AlphaEncoder {
        /// The chunk payload for the alpha of `width`×`height` RGBA8 pixels at alpha
        /// `quality` (0…100), and the alpha plane a decoder gets from it.
        ///
        /// The filter is the one whose residues have the smallest zeroth-order
        /// entropy, a cheap stand-in for compressing with each (libwebp's default
        /// `-alpha_filter fast` estimates the same way).
        static func encode(rgba: [UInt8], width: Int, height: Int, effort: Int,
                           quality: Int = 100) -> (payload: [UInt8], plane: [UInt8]) {
            var plane = [UInt8](repeating: 0, count: width * height)
            for i in plane.indices { plane[i] = rgba[4 * i + 3] }
            let exact = encode(plane: plane, width: width, height: height, effort: effort, preprocessing: 0)
            guard quality < 100 else { return (exact, plane) }
            let reduced = AlphaLevelReduction.reduce(plane, quality: quality)
            guard reduced != plane else { return (exact, plane) }
            // Fewer levels usually code smaller, but can break a smooth ramp the filters predicted
            // well; then the exact plane is both smaller and better.
            let payload = encode(plane: reduced, width: width, height: height, effort: effort, preprocessing: 1)
            return payload.count < exact.count ? (payload, reduced) : (exact, plane)
        }

        /// The chunk payload for `plane`, its header's pre-processing field set to `preprocessing`.
        private static func encode(plane: [UInt8], width: Int, height: Int, effort: Int, preprocessing: UInt8) -> [UInt8] {
            var best: (filter: AlphaFilter, residues: [UInt8], entropy: Double)?
            for filter in AlphaFilter.allCases {
                let residues = self.filter(plane, width: width, height: height, filter)
                let entropy = Self.entropy(residues)
                if best.map({ entropy < $0.entropy }) ?? true { best = (filter, residues, entropy) }
            }
            guard let best else { return [] }
            // The residues as green, on opaque black: the other channels cost nothing to code.
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for i in best.residues.indices {
                pixels[4 * i + 1] = best.residues[i]
                pixels[4 * i + 3] = 255
            }
            let stream = LosslessEncoder.encode(rgba: pixels, width: width, height: height, effort: effort, exact: true)
            // The VP8L header (signature, 14 + 14 size bits, alpha hint, version) is exactly five bytes;
            // ALPH streams start right after where it would be.
            return [preprocessing << 4 | best.filter.rawValue << 2 | 1] + stream.dropFirst(5)
        }

        /// The residues of `filter` over `plane`, the inverse of ``AlphaFilter/unfilter(_:above:width:)``.
        static func filter(_ plane: [UInt8], width: Int, height: Int, _ filter: AlphaFilter) -> [UInt8] {
            guard filter != .none else { return plane }
            var out = plane
            for y in 0..<height {
                let row = y * width
                for x in 0..<width {
                    let prediction: UInt8
                    if y == 0 {
                        prediction = x == 0 ? 0 : plane[row + x - 1]
                    } else if x == 0 {
                        prediction = plane[row - width]
                    } else {
                        switch filter {
                        case .horizontal: prediction = plane[row + x - 1]
                        case .vertical: prediction = plane[row - width + x]
                        default:
                            let g = Int(plane[row + x - 1]) + Int(plane[row - width + x]) - Int(plane[row - width + x - 1])
                            prediction = UInt8(clamping: g)
                        }
                    }
                    out[row + x] = plane[row + x] &- prediction
                }
            }
            return out
        }

        /// Zeroth-order entropy of the bytes, in bits.
        private static func entropy(_ values: [UInt8]) -> Double {
            var counts = [Int](repeating: 0, count: 256)
            for value in values { counts[Int(value)] += 1 }
            let total = Double(values.count)
            var bits = 0.0
            for count in counts where count > 0 {
                bits -= Double(count) * ScalarMath.log(Double(count) / total)
            }
            return bits / ScalarMath.ln2
        }
    }
}
