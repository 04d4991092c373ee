extension JPEG {
    /// One scan of the frame (ITU T.81 §B.2.3): components, spectral band and
    /// successive-approximation bits.
    struct ScanSpec: Sendable, Hashable {
        var components: [Int]
        var spectralStart: Int
        var spectralEnd: Int
        var approximationHigh: Int
        var approximationLow: Int

        static func sequential(componentCount: Int) -> ScanSpec {
            ScanSpec(components: Array(0..<componentCount), spectralStart: 0, spectralEnd: 63,
                     approximationHigh: 0, approximationLow: 0)
        }

        /// libjpeg's `jpeg_simple_progression` (`jcparam.c`): for YCbCr, DC
        /// first with one bit held back, a quick luma band 1–5, chroma, the rest
        /// of luma, then the refinements with luma's last bit at the end; for
        /// grey, the all-purpose six-scan script.
        static func simpleProgression(componentCount: Int) -> [ScanSpec] {
            func scan(_ c: [Int], _ ss: Int, _ se: Int, _ ah: Int, _ al: Int) -> ScanSpec {
                ScanSpec(components: c, spectralStart: ss, spectralEnd: se, approximationHigh: ah, approximationLow: al)
            }
            let all = Array(0..<componentCount)
            if componentCount == 3 {
                return [
                    scan(all, 0, 0, 0, 1),
                    scan([0], 1, 5, 0, 2),
                    scan([2], 1, 63, 0, 1),
                    scan([1], 1, 63, 0, 1),
                    scan([0], 6, 63, 0, 2),
                    scan([0], 1, 63, 2, 1),
                    scan(all, 0, 0, 1, 0),
                    scan([2], 1, 63, 1, 0),
                    scan([1], 1, 63, 1, 0),
                    scan([0], 1, 63, 1, 0),
                ]
            }
            var scans = [scan(all, 0, 0, 0, 1)]
            scans += all.map { scan([$0], 1, 5, 0, 2) }
            scans += all.map { scan([$0], 6, 63, 0, 2) }
            scans += all.map { scan([$0], 1, 63, 2, 1) }
            scans.append(scan(all, 0, 0, 1, 0))
            scans += all.map { scan([$0], 1, 63, 1, 0) }
            return scans
        }
    }
}
