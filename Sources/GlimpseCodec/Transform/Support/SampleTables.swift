/// Lookup tables that turn stored samples into the floating-point working
/// space of the transformers and back.
///
/// Working values are in 0…1. With `linear` the colour samples go through the
/// sRGB transfer function (IEC 61966-2-1 §5.2 / §5.3) so that averaging
/// happens on light intensities rather than on gamma-encoded numbers; alpha is
/// always linear.
///
/// The tables are immutable constants built once on first use (Swift globals
/// are initialised lazily and thread-safely), never configuration.
enum SampleTables {
    /// IEC 61966-2-1 §5.2: encoded sRGB value (0…1) → linear light.
    static func linear(fromSRGB v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow2_4((v + 0.055) / 1.055)
    }

    /// IEC 61966-2-1 §5.3: linear light (0…1) → encoded sRGB value.
    static func sRGB(fromLinear v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * powInverse2_4(v) - 0.055
    }

    /// 8-bit sample → working value, without and with linearisation.
    static let toWorking8: [Float] = (0..<256).map { Float(Double($0) / 255) }
    static let toWorkingLinear8: [Float] = (0..<256).map { Float(linear(fromSRGB: Double($0) / 255)) }
    /// 16-bit sample → working value, without and with linearisation.
    static let toWorking16: [Float] = (0..<65536).map { Float(Double($0) / 65535) }
    static let toWorkingLinear16: [Float] = sampled(linear(fromSRGB:)).map { Float($0) }

    /// Linear working value quantised to 16 bits (`Int(v * 65535 + 0.5)`) → encoded sample.
    /// 65 536 steps keep even the steep dark end of the curve finer than one 8-bit level.
    static let fromLinear8: [UInt8] = sampled(sRGB(fromLinear:)).map { UInt8(min(255, max(0, $0 * 255 + 0.5))) }
    /// The first guess of ``WorkingPixels/nearest16(_:from:_:)``, which refines it exactly.
    static let fromLinear16: [UInt16] = sampled(sRGB(fromLinear:)).map { UInt16(min(65535, max(0, $0 * 65535 + 0.5))) }

    /// `f` at the 65 536 points i / 65535, interpolated linearly between 4 097
    /// exact evaluations, so building a table costs milliseconds rather than
    /// 65 536 calls of the slow scalar `pow`. The interpolation error is below
    /// 3·10⁻⁸ for x^2.4 (under Float precision) and below 0.005 of an 8-bit level
    /// for x^(1/2.4); the 16-bit inverse is refined exactly afterwards anyway.
    private static func sampled(_ f: (Double) -> Double) -> [Double] {
        let knots = 4096
        let values = (0...knots).map { f(Double($0) / Double(knots)) }
        return (0..<65536).map { i in
            let position = Double(i) * Double(knots) / 65535
            let j = min(Int(position), knots - 1)
            let fraction = position - Double(j)
            return values[j] + (values[j + 1] - values[j]) * fraction
        }
    }

    static func toWorking(format: PixelFormat, linear: Bool) -> [Float] {
        switch (format, linear) {
        case (.rgba8, false): toWorking8
        case (.rgba8, true): toWorkingLinear8
        case (.rgba16, false): toWorking16
        case (.rgba16, true): toWorkingLinear16
        }
    }

    private static func pow2_4(_ x: Double) -> Double { ScalarMath.power(x, 2.4) }
    private static func powInverse2_4(_ x: Double) -> Double { ScalarMath.power(x, 1 / 2.4) }
}
