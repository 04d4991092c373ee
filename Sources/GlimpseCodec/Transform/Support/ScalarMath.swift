/// The few transcendental functions the transformers need (filter kernels,
/// rotation, Gaussian weights, sRGB tables), written on the standard library
/// alone because `GlimpseCodec` imports neither Foundation nor libc.
///
/// They run when tables and kernels are built, never per pixel, so clarity
/// wins over speed; accuracy is close to 1 ulp over the ranges used.
enum ScalarMath {
    static let ln2 = 0.693_147_180_559_945_3

    /// Natural logarithm of `x > 0`: x = m·2^e with m in [1, 2), then
    /// ln m = 2 atanh((m−1)/(m+1)) by its series.
    static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        let t = (x.significand - 1) / (x.significand + 1)
        let t2 = t * t
        var term = t, sum = 0.0, k = 1.0
        while k < 80 {
            sum += term / k
            term *= t2
            k += 2
        }
        return Double(x.exponent) * ln2 + 2 * sum
    }

    /// e^x: x = n ln2 + r with |r| ≤ ln2/2, then a Taylor series for e^r.
    static func exp(_ x: Double) -> Double {
        if x > 709 { return .infinity }
        if x < -745 { return 0 }
        let n = (x / ln2).rounded()
        let r = x - n * ln2
        var term = 1.0, sum = 1.0
        for k in 1...22 {
            term *= r / Double(k)
            sum += term
        }
        return sum * Double(sign: .plus, exponent: Int(n), significand: 1)
    }

    /// x^y for x ≥ 0.
    static func power(_ x: Double, _ y: Double) -> Double {
        x > 0 ? exp(y * log(x)) : 0
    }

    /// sin x: reduce to [−π, π], then a Taylor series (terms to x^31).
    static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let twoPi = 2 * Double.pi
        var r = x - (x / twoPi).rounded() * twoPi
        if r > .pi { r -= twoPi } else if r < -.pi { r += twoPi }
        let r2 = r * r
        var term = r, sum = r
        var k = 1.0
        while k < 31 {
            term *= -r2 / ((k + 1) * (k + 2))
            sum += term
            k += 2
        }
        return sum
    }

    static func cos(_ x: Double) -> Double { sin(x + .pi / 2) }
}
