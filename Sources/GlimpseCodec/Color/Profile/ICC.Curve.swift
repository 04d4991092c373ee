extension ICC {
    /// A one-dimensional transfer function: the `curv` (§10.6) and `para`
    /// (§10.18) tag types, used as TRCs and as the curve sets inside LUTs.
    ///
    /// Inputs and outputs are normalised to 0…1. Tables are evaluated the way
    /// LittleCMS evaluates 16-bit curves (input rounded to 16 bits, linear
    /// interpolation, output rounded to 16 bits), so sampled results agree with it.
    public enum Curve: Sendable, Hashable {
        /// `curv` with no entries: y = x.
        case identity
        /// `curv` with one entry (a `u8Fixed8Number` exponent): y = x^γ.
        case gamma(Double)
        /// `curv` with two or more entries, equally spaced over 0…1.
        case table([UInt16])
        /// `para`: one of the five parametric functions of Table 68.
        case parametric(Parametric)

        /// The `para` functions (ICC.1:2022 §10.18, Table 68), with the parameters
        /// a function type does not use set to their neutral values.
        public struct Parametric: Sendable, Hashable {
            /// The function type, 0…4.
            public var function: Int
            public var g: Double, a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 0, e: Double = 0, f: Double = 0

            public init(function: Int, g: Double, a: Double = 1, b: Double = 0, c: Double = 0,
                        d: Double = 0, e: Double = 0, f: Double = 0) {
                self.function = function
                self.g = g; self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
            }

            /// How many parameters each function type stores (Table 67).
            static let parameterCounts = [1, 3, 4, 5, 7]

            func evaluate(_ x: Double) -> Double {
                switch function {
                case 0:
                    return x <= 0 ? (abs(g - 1) < 1e-6 ? x : 0) : Math.pow(x, g)
                case 1, 2:
                    let offset = function == 2 ? c : 0
                    guard abs(a) > 1e-12 else { return offset }
                    let t = a * x + b
                    return x >= -b / a && t > 0 ? Math.pow(t, g) + offset : offset
                default:
                    let (e, f) = function == 4 ? (self.e, self.f) : (0, 0)
                    if x >= d {
                        let t = a * x + b
                        return (t > 0 ? Math.pow(t, g) : 0) + e
                    }
                    return c * x + f
                }
            }

            /// The analytic inverse where the function is increasing (as LittleCMS's
            /// negative function types), or `nil` when parameters make it undefined.
            func inverse(_ y: Double) -> Double? {
                guard g.isFinite, abs(g) > 1e-6, abs(a) > 1e-12 else { return nil }
                func root(_ t: Double) -> Double { t > 0 ? Math.pow(t, 1 / g) : 0 }
                switch function {
                case 0:
                    return root(y)
                case 1:
                    return (root(y) - b) / a
                case 2:
                    return (root(y - c) - b) / a
                case 3:
                    let edge = a * d + b > 0 ? Math.pow(a * d + b, g) : 0
                    if y >= edge { return (root(y) - b) / a }
                    return abs(c) > 1e-12 ? y / c : 0
                case 4:
                    let edge = (a * d + b > 0 ? Math.pow(a * d + b, g) : 0) + e
                    if y >= edge { return (root(y - e) - b) / a }
                    return abs(c) > 1e-12 ? (y - f) / c : 0
                default:
                    return nil
                }
            }
        }

        /// y for x in 0…1 (values outside are clamped for tables).
        public func evaluate(_ x: Double) -> Double {
            switch self {
            case .identity:
                return x
            case .gamma(let g):
                return Parametric(function: 0, g: g).evaluate(x)
            case .parametric(let p):
                return p.evaluate(x)
            case .table(let entries):
                return Curve.interpolate(entries, x)
            }
        }

        /// x such that `evaluate(x) == y` for an increasing curve, clamped to 0…1:
        /// analytic for gamma and `para`, a search of the table otherwise (the
        /// output side of a matrix/TRC profile, §F.3).
        public func inverse(_ y: Double) -> Double {
            let result: Double
            switch self {
            case .identity:
                result = y
            case .gamma(let g):
                result = Parametric(function: 0, g: g).inverse(y) ?? y
            case .parametric(let p):
                result = p.inverse(y) ?? bisect(y)
            case .table:
                result = bisect(y)
            }
            return result.isNaN ? 0 : min(1, max(0, result))
        }

        private func bisect(_ y: Double) -> Double {
            var low = 0.0, high = 1.0
            let increasing = evaluate(1) >= evaluate(0)
            for _ in 0..<40 {
                let middle = (low + high) / 2
                if (evaluate(middle) < y) == increasing { low = middle } else { high = middle }
            }
            return (low + high) / 2
        }

        /// 16-bit table lookup as LittleCMS's `LinLerp1D`: rounded input, linear
        /// interpolation between the two nearest entries, rounded output.
        static func interpolate(_ entries: [UInt16], _ x: Double) -> Double {
            guard let last = entries.last else { return x }
            guard entries.count > 1 else { return Double(last) / 65535 }
            let word = Curve.quantize(x)
            if word == 65535 { return Double(last) / 65535 }
            let position = Double(word) * Double(entries.count - 1) / 65535
            let cell = Int(position)
            let rest = position - Double(cell)
            let y0 = Double(entries[cell]), y1 = Double(entries[cell + 1])
            return (y0 + (y1 - y0) * rest).rounded() / 65535
        }

        /// x in 0…1 rounded to a 16-bit sample, NaN as 0 (LittleCMS's `_cmsQuickSaturateWord`).
        static func quantize(_ x: Double) -> Int {
            guard x > 0 else { return 0 }
            guard x < 1 else { return 65535 }
            return Int(x * 65535 + 0.5)
        }
    }
}
