import Foundation
import Testing
@testable import GlimpseCodec

/// §7.13: the inverse transforms against their floating-point definitions, exactness where the
/// specification makes them exact, and safety at the clamp bounds for every size and type.
@Suite struct AV1InverseTransformTests {
    typealias K = AVIF.AV1Tables
    typealias Kind = AVIF.InverseTransform.Kind

    /// The 1-D inverse of `kind` over N = 2^n points, in floating point: the DCT-II inverse
    /// (DCT-III with the DC term at 1/√2), the sine transforms behind ADST4 (sin(π(i+1)(2k+1)/9)
    /// scaled by 2√2/3) and ADST8/16 (DST-IV-like sin(π(2i+1)(2k+1)/4N)), and the scaled identity.
    static func reference(_ kind: Kind, n: Int, _ input: [Int]) -> [Double] {
        let count = 1 << n
        let r2 = 2.0.squareRoot()
        return (0..<count).map { i in
            var sum = 0.0
            for k in 0..<count {
                let x = Double(input[k])
                switch kind {
                case .dct:
                    sum += x * (k == 0 ? 1 / r2 : cos(Double.pi * Double((2 * i + 1) * k) / Double(2 * count)))
                case .adst where count == 4:
                    sum += x * (2 * r2 / 3) * sin(Double.pi * Double((i + 1) * (2 * k + 1)) / 9)
                case .adst:
                    sum += x * sin(Double.pi * Double((2 * i + 1) * (2 * k + 1)) / Double(4 * count))
                case .identity:
                    if i == k { sum += x * [r2, 2, 2 * r2, 4][n - 2] }
                }
            }
            return sum
        }
    }

    @Test(arguments: [(Kind.dct, 2), (.dct, 3), (.dct, 4), (.dct, 5), (.dct, 6), (.adst, 2), (.adst, 3), (.adst, 4),
                      (.identity, 2), (.identity, 3), (.identity, 4), (.identity, 5)])
    func oneDimensionalMatchesFloatingPoint(kind: Kind, n: Int) {
        var random = AV1TestRandom(seed: UInt64(n * 31 + (kind == .dct ? 1 : kind == .adst ? 2 : 3)))
        var transform = AVIF.InverseTransform()
        for _ in 0..<300 {
            let input = (0..<(1 << n)).map { _ in Int.random(in: -(1 << 15)...(1 << 15), using: &random) }
            for i in 0..<input.count { transform.T[i] = input[i] }
            transform.transform1D(kind, n: n, r: 24)
            let expected = Self.reference(kind, n: n, input)
            // The 12-bit cosines carry a relative error near 2^-13 per multiplication: the
            // tolerance grows with the input's total magnitude, far below any wrong output.
            let magnitude = input.reduce(0.0) { $0 + Double(abs($1)) }
            let tolerance = magnitude / 1024 + 4
            for i in 0..<input.count {
                #expect(abs(Double(transform.T[i]) - expected[i]) <= tolerance, "\(kind) n=\(n) i=\(i)")
            }
        }
    }

    @Test func identityIsExactWhereTheSpecificationSaysSo() {
        var transform = AVIF.InverseTransform()
        var random = AV1TestRandom(seed: 7)
        for _ in 0..<100 {
            let input = (0..<32).map { _ in Int.random(in: -100_000...100_000, using: &random) }
            for n in 2...5 {
                for i in 0..<(1 << n) { transform.T[i] = input[i] }
                transform.inverseIdentity(n: n)
                for i in 0..<(1 << n) {
                    let expected: Int
                    switch n {
                    case 2: expected = (input[i] * 5793 + 2048) >> 12
                    case 3: expected = input[i] * 2
                    case 4: expected = (input[i] * 11586 + 2048) >> 12
                    default: expected = input[i] * 4
                    }
                    #expect(transform.T[i] == expected)
                }
            }
        }
    }

    /// Undoes the lifting steps of §7.13.2.10's inverse WHT (shift 0): the forward transform
    /// whose output the inverse maps back exactly.
    static func forwardWHT(_ v: [Int]) -> [Int] {
        let (a3, b2, c2, d3) = (v[0], v[1], v[2], v[3])
        let d1 = d3 - c2
        let a1 = a3 + b2
        let e = (a1 - d1) >> 1
        let c0 = e - c2
        let b0 = e - b2
        let d0 = d1 + b0
        let a0 = a1 - c0
        return [a0, c0, d0, b0]
    }

    @Test func walshHadamardRoundTripsLosslessly() {
        var random = AV1TestRandom(seed: 11)
        var transform = AVIF.InverseTransform()
        for bitDepth in [8, 10, 12] {
            for _ in 0..<200 {
                let limit = (1 << bitDepth) - 1
                let residual = (0..<16).map { _ in Int.random(in: -limit...limit, using: &random) }
                // Forward: columns, then rows, then the × 4 the inverse's row pre-shift removes.
                var middle = [Int](repeating: 0, count: 16)
                for j in 0..<4 {
                    let column = Self.forwardWHT([residual[j], residual[4 + j], residual[8 + j], residual[12 + j]])
                    for i in 0..<4 { middle[i * 4 + j] = column[i] }
                }
                for i in 0..<4 {
                    let row = Self.forwardWHT(Array(middle[(i * 4)..<(i * 4 + 4)]))
                    for j in 0..<4 { transform.dequant[i * 32 + j] = row[j] * 4 }
                }
                transform.inverseTransform2D(txSz: K.TX_4X4, txType: K.DCT_DCT, lossless: true, bitDepth: bitDepth)
                for i in 0..<4 {
                    for j in 0..<4 { #expect(transform.residual[i * 64 + j] == residual[i * 4 + j]) }
                }
            }
        }
    }

    /// The transform types a size allows (§5.11.47's sets): DCT always, ADST up to 16, identity up to 32.
    static func types(for txSz: Int) -> [Int] {
        let w = K.Tx_Width[txSz], h = K.Tx_Height[txSz]
        var types = [K.DCT_DCT]
        if w <= 16 && h <= 16 {
            types += [K.ADST_DCT, K.DCT_ADST, K.ADST_ADST, K.FLIPADST_DCT, K.DCT_FLIPADST, K.FLIPADST_FLIPADST,
                      K.ADST_FLIPADST, K.FLIPADST_ADST, K.V_DCT, K.H_DCT, K.V_ADST, K.H_ADST, K.V_FLIPADST, K.H_FLIPADST]
        }
        if w <= 32 && h <= 32 { types.append(K.IDTX) }
        return types
    }

    /// The floating-point 1-D inverse as a matrix: M[ i ][ k ] is output i for a unit input k.
    static func matrix(_ kind: Kind, n: Int) -> [[Double]] {
        let count = 1 << n
        var m = [[Double]](repeating: [Double](repeating: 0, count: count), count: count)
        for k in 0..<count {
            var basis = [Int](repeating: 0, count: count)
            basis[k] = 1
            let out = reference(kind, n: n, basis)
            for i in 0..<count { m[i][k] = out[i] }
        }
        return m
    }

    @Test func twoDimensionalMatchesFloatingPointForEverySizeAndType() {
        var random = AV1TestRandom(seed: 23)
        var transform = AVIF.InverseTransform()
        for txSz in 0..<K.TX_SIZES_ALL {
            let log2W = K.Tx_Width_Log2[txSz], log2H = K.Tx_Height_Log2[txSz]
            let w = 1 << log2W, h = 1 << log2H
            for txType in Self.types(for: txSz) {
                for _ in 0..<3 {
                    var coefficients = [Int](repeating: 0, count: 32 * 32)
                    for i in 0..<min(h, 32) {
                        for j in 0..<min(w, 32) where Int.random(in: 0..<4, using: &random) == 0 {
                            coefficients[i * 32 + j] = Int.random(in: -2000...2000, using: &random)
                        }
                    }
                    transform.dequant = coefficients
                    transform.inverseTransform2D(txSz: txSz, txType: txType, lossless: false, bitDepth: 8)
                    // Floating point: rows (with 1/√2 for 2:1 shapes), then columns, then the shifts.
                    let rowKind = AVIF.InverseTransform.rowKind(txType)
                    let columnKind = AVIF.InverseTransform.columnKind(txType)
                    let rect = abs(log2W - log2H) == 1 ? 1 / 2.0.squareRoot() : 1
                    var rows = [[Double]]()
                    for i in 0..<h {
                        let input = (0..<w).map { j in i < 32 && j < 32 ? coefficients[i * 32 + j] : 0 }
                        let out = Self.reference(rowKind, n: log2W, input)
                        rows.append(out.map { $0 * rect / Double(1 << K.Transform_Row_Shift[txSz]) })
                    }
                    let columns = Self.matrix(columnKind, n: log2H)
                    var worst = 0.0
                    for j in 0..<w {
                        for i in 0..<h {
                            var sum = 0.0
                            for k in 0..<h { sum += rows[k][j] * columns[i][k] }
                            worst = max(worst, abs(Double(transform.residual[i * 64 + j]) - sum / 16))
                        }
                    }
                    #expect(worst <= 3, "txSz \(txSz) type \(txType): \(worst)")
                }
            }
        }
    }

    @Test func clampBoundsNeverTrap() {
        var random = AV1TestRandom(seed: 5)
        var transform = AVIF.InverseTransform()
        for bitDepth in [8, 10, 12] {
            let high = (1 << (7 + bitDepth)) - 1, low = -(1 << (7 + bitDepth))
            for txSz in 0..<K.TX_SIZES_ALL {
                for txType in 0..<K.TX_TYPES {
                    for pattern in 0..<4 {
                        for k in 0..<(32 * 32) {
                            switch pattern {
                            case 0: transform.dequant[k] = high
                            case 1: transform.dequant[k] = low
                            case 2: transform.dequant[k] = (k & 1) == 0 ? high : low
                            default: transform.dequant[k] = Bool.random(using: &random) ? high : low
                            }
                        }
                        for lossless in [false, true] where !lossless || txSz == K.TX_4X4 {
                            transform.inverseTransform2D(txSz: txSz, txType: txType, lossless: lossless, bitDepth: bitDepth)
                        }
                    }
                }
            }
        }
        // Coefficients far outside any coded range go through the dequantizer's clamps.
        var plane = AVIF.AV1Plane(width: 64, height: 64, value: 128)
        let q = AVIF.InverseTransform.BlockQuantizer(dcQuant: 1336, acQuant: 1828, usingQmatrix: true, qmLevel: 0, bitDepth: 8)
        for txSz in 0..<K.TX_SIZES_ALL {
            let quant = (0..<1024).map { $0 & 1 == 0 ? Int.max : Int.min }
            transform.reconstruct(into: &plane, plane: 0, x: 0, y: 0, txSz: txSz, txType: K.DCT_DCT, quant: quant, q)
            // Partly outside the plane: dropped, not trapped.
            transform.reconstruct(into: &plane, plane: 1, x: 40, y: 40, txSz: txSz, txType: K.FLIPADST_FLIPADST,
                                  quant: quant, q)
        }
        #expect(plane.samples.allSatisfy { $0 <= 255 })
    }

    @Test func reconstructDequantizesAndFlips() {
        var transform = AVIF.InverseTransform()
        // A DC coefficient alone: every sample moves by the same amount.
        var plane = AVIF.AV1Plane(width: 8, height: 8, value: 100)
        let q = AVIF.InverseTransform.BlockQuantizer(dcQuant: 8, acQuant: 8, bitDepth: 8)
        var quant = [Int](repeating: 0, count: 16)
        quant[0] = 64
        transform.reconstruct(into: &plane, plane: 0, x: 0, y: 0, txSz: K.TX_4X4, txType: K.DCT_DCT, quant: quant, q)
        // 64 × 8 = 512; rows: Round2(512 × 2896, 12) = 362; columns: Round2(362 × 2896, 12) = 256; Round2(256, 4) = 16.
        for y in 0..<4 { for x in 0..<4 { #expect(plane[y: y, x: x] == 116) } }
        #expect(plane[y: 4, x: 4] == 100)
        // FLIPADST_DCT flips vertically: the ADST column's ramp is mirrored.
        var a = AVIF.AV1Plane(width: 4, height: 4, value: 100)
        var b = AVIF.AV1Plane(width: 4, height: 4, value: 100)
        transform.reconstruct(into: &a, plane: 0, x: 0, y: 0, txSz: K.TX_4X4, txType: K.ADST_DCT, quant: quant, q)
        transform.reconstruct(into: &b, plane: 0, x: 0, y: 0, txSz: K.TX_4X4, txType: K.FLIPADST_DCT, quant: quant, q)
        for y in 0..<4 { for x in 0..<4 { #expect(a[y: y, x: x] == b[y: 3 - y, x: x]) } }
        #expect(a[y: 0, x: 0] != a[y: 3, x: 0])
        // dqDenom and the 24-bit mask: a 32×32 halves the product.
        transform.dequantize(quant: [3] + [Int](repeating: 0, count: 1023), plane: 0, txSz: K.TX_32X32, txType: K.DCT_DCT,
                             .init(dcQuant: 5, acQuant: 5, bitDepth: 8))
        #expect(transform.dequant[0] == 7)
        transform.dequantize(quant: [-3], plane: 0, txSz: K.TX_64X64, txType: K.DCT_DCT, .init(dcQuant: 5, acQuant: 5, bitDepth: 8))
        #expect(transform.dequant[0] == -3)
        transform.dequantize(quant: [(1 << 24) + 1], plane: 0, txSz: K.TX_4X4, txType: K.DCT_DCT, .init(dcQuant: 1, acQuant: 1, bitDepth: 12))
        #expect(transform.dequant[0] == 1)
        // Any integer collection: Int32 coefficients, a slice starting past 0.
        transform.dequantize(quant: [Int32(-7)], plane: 0, txSz: K.TX_4X4, txType: K.DCT_DCT, .init(dcQuant: 3, acQuant: 3, bitDepth: 8))
        #expect(transform.dequant[0] == -21)
        let slice = [99, 5, 0][1...]
        transform.dequantize(quant: slice, plane: 0, txSz: K.TX_4X4, txType: K.DCT_DCT, .init(dcQuant: 3, acQuant: 3, bitDepth: 8))
        #expect(transform.dequant[0] == 15 && transform.dequant[1] == 0)
        // Quantizer matrices: Round2( q × Quantizer_Matrix[ level ][ plane > 0 ][ Qm_Offset[ txSz ] + i × tw + j ], 5 ),
        // not for identity types nor at level 15.
        let withMatrix = AVIF.InverseTransform.BlockQuantizer(dcQuant: 64, acQuant: 80, usingQmatrix: true, qmLevel: 3, bitDepth: 8)
        var coefficients = [Int](repeating: 0, count: 64)
        coefficients[0] = 1
        coefficients[8 + 5] = -1
        transform.dequantize(quant: coefficients, plane: 1, txSz: K.TX_8X8, txType: K.DCT_DCT, withMatrix)
        let m0 = Int(K.Quantizer_Matrix[3][1][K.Qm_Offset[K.TX_8X8]])
        let m13 = Int(K.Quantizer_Matrix[3][1][K.Qm_Offset[K.TX_8X8] + 13])
        #expect(transform.dequant[0] == (64 * m0 + 16) >> 5)
        #expect(transform.dequant[32 + 5] == -((80 * m13 + 16) >> 5))
        transform.dequantize(quant: coefficients, plane: 1, txSz: K.TX_8X8, txType: K.IDTX, withMatrix)
        #expect(transform.dequant[0] == 64 && transform.dequant[32 + 5] == -80)
    }

    @Test func quantizerLookups() {
        let d = AVIF.Dequantizer(bitDepth: 8, deltaQYDc: -300, deltaQUDc: 2, deltaQUAc: 3, deltaQVDc: 4, deltaQVAc: 500)
        #expect(d.getDcQuant(plane: 0, qindex: 100) == 4)  // clamped to index 0
        #expect(d.getDcQuant(plane: 1, qindex: 0) == K.Dc_Qlookup[0][2])
        #expect(d.getAcQuant(plane: 1, qindex: 0) == K.Ac_Qlookup[0][3])
        #expect(d.getAcQuant(plane: 2, qindex: 0) == 1828)  // clamped to 255
        #expect(AVIF.Dequantizer.ac_q(255, bitDepth: 12) == 29247)
        #expect(AVIF.Dequantizer.dc_q(255, bitDepth: 10) == 5347)
    }
}
