/// The reconstruction filter a resize uses.
///
/// Downscaling widens the filter by the scale factor (it becomes a low-pass
/// filter over that many source pixels); upscaling uses it at its natural width.
public enum ResamplingFilter: String, Sendable, Hashable, CaseIterable {
    /// Lanczos windowed sinc with a = 3 (support ±3; C. Duchon, "Lanczos filtering
    /// in one and two dimensions", J. Appl. Meteorology 18, 1979): the sharpest, with slight
    /// ringing at hard edges (clamped to the sample range).
    case lanczos3
    /// Mitchell–Netravali cubic with B = C = 1/3 (support ±2): softer than
    /// Lanczos, with less ringing. Mitchell & Netravali, SIGGRAPH 1988.
    case mitchell
    /// Triangle (tent) filter, support ±1: bilinear when upscaling, a cheap
    /// area-weighted average when downscaling. Good for previews.
    case bilinear
    /// Box filter, support ±½: nearest-neighbour when upscaling, a plain area
    /// average when downscaling. The cheapest.
    case box

    /// Half-width of the kernel in source pixels at scale 1.
    var support: Double {
        switch self {
        case .lanczos3: 3
        case .mitchell: 2
        case .bilinear: 1
        case .box: 0.5
        }
    }

    /// The kernel's value at distance `x` (in filter units).
    func weight(_ x: Double) -> Double {
        let t = abs(x)
        switch self {
        case .box:
            return x >= -0.5 && x < 0.5 ? 1 : 0
        case .bilinear:
            return t < 1 ? 1 - t : 0
        case .mitchell:
            // Mitchell & Netravali's piecewise cubic with B = C = 1/3, multiplied by 6.
            let b = 1.0 / 3, c = 1.0 / 3
            let t2 = t * t, t3 = t2 * t
            if t < 1 {
                return ((12 - 9 * b - 6 * c) * t3 + (-18 + 12 * b + 6 * c) * t2 + (6 - 2 * b)) / 6
            } else if t < 2 {
                return ((-b - 6 * c) * t3 + (6 * b + 30 * c) * t2 + (-12 * b - 48 * c) * t + (8 * b + 24 * c)) / 6
            }
            return 0
        case .lanczos3:
            guard t < 3 else { return 0 }
            return Self.sinc(t) * Self.sinc(t / 3)
        }
    }

    private static func sinc(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        let px = Double.pi * x
        return ScalarMath.sin(px) / px
    }
}
