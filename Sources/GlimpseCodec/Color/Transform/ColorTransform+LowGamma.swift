extension ColorTransform {
    /// Whether LittleCMS would leave a 16-bit transform from `profile` unoptimised
    /// (`cmsxform.c`: an RGB source whose `cmsDetectRGBProfileGamma` is between 0 and 1.6
    /// gets `cmsFLAGS_NOOPTIMIZE`, since a CLUT sampled in nearly linear space would
    /// lose the shadows). The gamma is `cmsEstimateGamma`'s: the mean of log(Y)/log(x)
    /// over a 256-step grey ramp to relative colorimetric XYZ, read at 4 095 points
    /// above x = 0.07, refused (−1) when its standard deviation exceeds 0.1.
    ///
    /// Only RGB profiles of the input, display, output and colour space classes are measured
    /// (``measuresGamma(_:)``); the measurement itself waits for a 16-bit buffer.
    static func isLowGamma(_ pipeline: Pipeline) -> Bool {
        // FROM_8_TO_16 codes, as the ramp LittleCMS feeds (relative colorimetric XYZ: the PCS side
        // of a matrix/TRC source, before any black point compensation).
        let ramp = (0...255).map { code in pipeline.pcs([Double](repeating: Double(code * 257) / 65535, count: 3)).y }
        var sum = 0.0, sum2 = 0.0, n = 0.0
        for i in 1..<4096 {
            let x = Double(i) / 4096
            let position = x * 255
            let cell = min(254, Int(position))
            let y = ramp[cell] + (ramp[cell + 1] - ramp[cell]) * (position - Double(cell))
            guard y > 0, y < 1, x > 0.07 else { continue }
            let gamma = ICC.Math.log(y) / ICC.Math.log(x)
            sum += gamma
            sum2 += gamma * gamma
            n += 1
        }
        guard n > 1 else { return false }
        let variance = (n * sum2 - sum * sum) / (n * (n - 1))
        guard variance <= 0.01 else { return false }
        let gamma = sum / n
        return gamma > 0 && gamma < 1.6
    }

    /// Whether `cmsDetectRGBProfileGamma` measures `profile` at all (it returns −1 for other classes).
    static func measuresGamma(_ profile: ICC.Profile) -> Bool {
        profile.colorSpace == "RGB " && ["scnr", "mntr", "prtr", "spac"].contains(profile.deviceClass)
    }
}
