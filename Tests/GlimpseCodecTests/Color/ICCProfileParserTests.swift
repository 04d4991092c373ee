import Foundation
import GlimpseCodec
import Testing
import TestSupport

/// The ICC parser on built and installed profiles, and on hostile bytes: every
/// malformed input is a typed ``ICC/ProfileError``, never a crash or a large allocation.
@Suite("ICC profile parser")
struct ICCProfileParserTests {
    @Test("a matrix/TRC profile's header, tags and curves")
    func matrixShaper() throws {
        var builder = ICCProfileBuilder.adobeRGB
        builder.tags.append(("desc", Array("mluc".utf8) + [0, 0, 0, 0] + ICCProfileBuilder.be32(1) + ICCProfileBuilder.be32(12)
                                 + Array("enUS".utf8) + ICCProfileBuilder.be32(8) + ICCProfileBuilder.be32(28)
                                 + [0, 0x41, 0, 0x64, 0, 0x6F, 0, 0x62]))
        let profile = try ICC.Profile(parsing: builder.build())
        #expect(profile.version.major == 4)
        #expect(profile.colorSpace == "RGB ")
        #expect(profile.connectionSpace == "XYZ ")
        #expect(profile.isMatrixShaper)
        #expect(profile.profileDescription == "Adob")
        #expect(profile.tagSignatures.map(\.description) == ["wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC", "desc"])
        let curve = try #require(profile.transferCurves?.red)
        #expect(curve == .gamma(563.0 / 256))
        #expect(abs(curve.evaluate(0.5) - pow(0.5, 563.0 / 256)) < 1e-12)
        #expect(abs(try #require(profile.colorants).red.x - 0.60974) < 1e-4)
    }

    @Test("the five para functions of Table 68 and their inverses")
    func parametricFunctions() throws {
        let parameters: [[Double]] = [[2.2], [2.4, 0.9, 0.1], [2.4, 0.9, 0.1, 0.05], [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045],
                                      [2.4, 0.9, 0.1, 0.5, 0.1, 0.02, 0.01]]
        for (function, values) in parameters.enumerated() {
            let (g, a, b) = (values[0], values.count > 1 ? values[1] : 1, values.count > 2 ? values[2] : 0)
            let c = values.count > 3 ? values[3] : 0, d = values.count > 4 ? values[4] : 0
            let e = values.count > 5 ? values[5] : 0, f = values.count > 6 ? values[6] : 0
            var builder = ICCProfileBuilder(colorSpace: "GRAY")
            builder.tags = [("kTRC", ICCProfileBuilder.para(UInt16(function), values))]
            let curve = try #require(try ICC.Profile(parsing: builder.build()).grayCurve)
            for x in stride(from: 0.0, through: 1.0, by: 0.125) {
                let expected: Double
                switch function {
                case 0: expected = pow(x, g)
                case 1: expected = x >= -b / a ? pow(a * x + b, g) : 0
                case 2: expected = x >= -b / a ? pow(a * x + b, g) + c : c
                case 3: expected = x >= d ? pow(a * x + b, g) : c * x
                default: expected = x >= d ? pow(a * x + b, g) + e : c * x + f
                }
                // Parameters are stored as s15Fixed16, so they differ from the doubles by up to 2^-17.
                #expect(abs(curve.evaluate(x) - expected) < 1e-4, "function \(function) at \(x)")
                if x > 0.1 { #expect(abs(curve.inverse(curve.evaluate(x)) - x) < 1e-6, "inverse of function \(function) at \(x)") }
            }
        }
    }

    @Test("a curv table is interpolated at 16 bits")
    func tableCurve() throws {
        var builder = ICCProfileBuilder(colorSpace: "GRAY")
        builder.tags = [("kTRC", ICCProfileBuilder.curv([0, 1000, 65535]))]
        let curve = try #require(try ICC.Profile(parsing: builder.build()).grayCurve)
        #expect(curve.evaluate(0) == 0)
        // 0.5 rounds to code 32768, a hair past the middle entry.
        #expect(abs(curve.evaluate(0.5) - 1000.0 / 65535) <= 2.0 / 65535)
        #expect(curve.evaluate(1) == 1)
        #expect(abs(curve.evaluate(0.25) - 500.0 / 65535) < 1.0 / 65535)
    }

    static func error(_ bytes: [UInt8], limits: ICC.Limits = ICC.Limits()) -> ICC.ProfileError? {
        do {
            _ = try ICC.Profile(parsing: bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("truncated, unsigned, unversioned and oversized profiles")
    func headerErrors() {
        let good = ICCProfileBuilder.sRGB.build()
        #expect(Self.error([]) == .truncated(size: 0))
        #expect(Self.error(Array(good.prefix(131))) == .truncated(size: 131))
        var unsigned = good
        unsigned[36] = 0x41
        #expect(Self.error(unsigned) == .signature)
        var version3 = good
        version3[8] = 3
        #expect(Self.error(version3) == .version(major: 3))
        var declared = good
        declared.replaceSubrange(0..<4, with: ICCProfileBuilder.be32(UInt32(good.count + 1)))
        #expect(Self.error(declared) == .declaredSize(declared: good.count + 1, actual: good.count))
        var limits = ICC.Limits()
        limits.maximumProfileBytes = 100
        #expect(Self.error(good, limits: limits) == .tooLarge(size: good.count, limit: 100))
        var manyTags = good
        manyTags.replaceSubrange(128..<132, with: ICCProfileBuilder.be32(0xFFFF_FFFF))
        #expect(Self.error(manyTags) == .tagCount(0xFFFF_FFFF))
    }

    @Test("tags outside the profile, of the wrong type, or with bad contents")
    func tagErrors() {
        var outside = ICCProfileBuilder.sRGB.build()
        outside.replaceSubrange(136..<140, with: ICCProfileBuilder.be32(0xFFFF_FF00))
        #expect(Self.error(outside) == .tagBounds("wtpt"))

        var wrongType = ICCProfileBuilder.sRGB
        wrongType.tags[4] = ("rTRC", ICCProfileBuilder.xyz(1, 1, 1))
        #expect(Self.error(wrongType.build()) == .tagType(tag: "rTRC", type: "XYZ "))

        var function7 = ICCProfileBuilder.sRGB
        function7.tags[4] = ("rTRC", ICCProfileBuilder.para(7, [1]))
        #expect(Self.error(function7.build()) == .parametricFunction(tag: "rTRC", function: 7))

        var hugeCurve = ICCProfileBuilder.sRGB
        hugeCurve.tags[4] = ("rTRC", Array("curv".utf8) + [0, 0, 0, 0] + ICCProfileBuilder.be32(0xFFFF_FFFF))
        #expect(Self.error(hugeCurve.build()) == .curveEntries(tag: "rTRC", count: 0xFFFF_FFFF))

        var shortCurve = ICCProfileBuilder.sRGB
        shortCurve.tags[4] = ("rTRC", Array("curv".utf8) + [0, 0, 0, 0] + ICCProfileBuilder.be32(1000) + [0, 1])
        #expect(Self.error(shortCurve.build()) == .tagTruncated("rTRC"))
    }

    @Test("CLUT grids too large, degenerate or truncated are refused before allocating")
    func gridErrors() {
        func cmyk(_ lut: [UInt8]) -> [UInt8] {
            var builder = ICCProfileBuilder(deviceClass: "prtr", colorSpace: "CMYK", connectionSpace: "Lab ")
            builder.tags = [("A2B0", lut)]
            return builder.build()
        }
        // 255^4 × 3 samples (12.7 billion) declared in a tag of a few hundred bytes.
        #expect(Self.error(cmyk(ICCProfileBuilder.mft2(inputs: 4, outputs: 3, points: 255, samples: []))) == .grid(tag: "A2B0", points: [255, 255, 255, 255]))
        #expect(Self.error(cmyk(ICCProfileBuilder.mft2(inputs: 4, outputs: 3, points: 1, samples: [1, 2, 3]))) == .grid(tag: "A2B0", points: [1, 1, 1, 1]))
        #expect(Self.error(cmyk(ICCProfileBuilder.mft2(inputs: 4, outputs: 3, points: 2, samples: [UInt16](repeating: 0, count: 40)))) == .tagTruncated("A2B0"))
        #expect(Self.error(cmyk(ICCProfileBuilder.mft2(inputs: 3, outputs: 3, points: 2, samples: []))) == .channels(tag: "A2B0", inputs: 3, outputs: 3))

        var modular = Array("mAB ".utf8) + [0, 0, 0, 0, 4, 3, 0, 0]
        // B curves at 32 (three identities of 12 bytes), the CLUT at 68 with a zero grid dimension.
        modular += ICCProfileBuilder.be32(32) + ICCProfileBuilder.be32(0) + ICCProfileBuilder.be32(0) + ICCProfileBuilder.be32(68) + ICCProfileBuilder.be32(0)
        modular += ICCProfileBuilder.curv([]) + ICCProfileBuilder.curv([]) + ICCProfileBuilder.curv([])
        modular += [0, 9, 9, 9] + [UInt8](repeating: 0, count: 12) + [2, 0, 0, 0]
        #expect(Self.error(cmyk(modular)) == .grid(tag: "A2B0", points: [0, 9, 9, 9]))
    }

    static let installed = ["/usr/share/color/icc/colord/AdobeRGB1998.icc", "/usr/share/color/icc/ghostscript/default_cmyk.icc",
                            "/usr/share/color/icc/ghostscript/ps_cmyk.icc", "/usr/share/color/icc/Gray-CIE_L.icc",
                            "/usr/share/color/icc/sRGB.icc"].filter { FileManager.default.fileExists(atPath: $0) }

    @Test("installed profiles cut at every length and with bytes flipped parse or fail typed, and transforms never crash",
          .enabled(if: !installed.isEmpty))
    func damagedInstalledProfiles() throws {
        var random = SplitMix(seed: 30)
        for path in Self.installed {
            let bytes = try Fixtures.bytes(at: URL(fileURLWithPath: path))
            let small = bytes.count < 40_000
            var cases = stride(from: 0, to: bytes.count, by: max(1, bytes.count / (small ? 60 : 12))).map { Array(bytes.prefix($0)) }
            for _ in 0..<(small ? 80 : 8) {
                var damaged = bytes
                for _ in 0..<4 { damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
                cases.append(damaged)
            }
            // Building a CMYK transform samples 17^4 colours, slow in debug builds: a few suffice.
            var cmykTransforms = 0
            for candidate in cases {
                guard let profile = try? ICC.Profile(parsing: candidate) else { continue }
                if profile.colorSpace == "CMYK" {
                    guard cmykTransforms < 3 else { continue }
                    cmykTransforms += 1
                }
                guard let transform = try? ColorTransform(source: profile) else { continue }
                var pixels = PixelBuffer(width: 4, height: 1)
                pixels.bytes = [0, 0, 0, 255, 255, 255, 255, 255, 12, 200, 99, 255, 128, 128, 128, 255]
                transform.apply(to: &pixels)
                var rgba = [UInt8](repeating: 0, count: 8)
                let cmyk: [UInt8] = [0, 0, 0, 0, 255, 128, 7, 255]
                cmyk.withUnsafeBufferPointer { source in rgba.withUnsafeMutableBufferPointer { transform.convertCMYK(source, into: $0) } }
            }
        }
    }
}
