import Foundation
import GlimpseCodec
import Testing
import TestSupport

/// LittleCMS 2 (through imagecodecs' `cms_transform`, which takes 8- and 16-bit arrays and
/// grey output) converting test patterns between pairs of installed profiles, in one
/// Python run shared by the tests.
enum ProfileToProfileReference {
    /// A source profile, a destination profile and an intent.
    struct Pair: Sendable, Hashable, CustomTestStringConvertible {
        let source: String
        let destination: String
        let intent: ICC.RenderingIntent

        var testDescription: String {
            "\(Pair.name(source)) → \(Pair.name(destination)) \(intent == .perceptual ? "perceptual" : "relative")"
        }

        static func name(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }
    }

    /// What LittleCMS made of the patterns for one pair.
    struct Conversion: Sendable {
        /// Channels of the source (1, 3 or 4) and of the destination (1 or 3).
        let inputChannels: Int
        let outputChannels: Int
        let input8: [UInt8]
        let output8: [UInt8]
        /// Empty for CMYK sources (Glimpse's CMYK path is 8-bit only).
        let input16: [UInt16]
        let output16: [UInt16]
    }

    static let icc = "/usr/share/color/icc/"
    /// Display P3 as `cmsCreateRGBProfile` builds it (version 4, the sRGB curve as a 4 096-entry
    /// table), written by the Python run: no Display P3 profile is installed by Debian.
    static let displayP3 = "DisplayP3.icc"
    /// A version 4 RGB profile made only of LUTs (`A2B0`, `B2A0`: `mft2` with 17-point grids
    /// sampled from Adobe RGB's model), since no installed RGB profile has a `B2Ax` tag.
    static let lutRGB = "LUT-RGB.icc"
    /// The same with an L*a*b* PCS (`B2A0` only, `mft2` in version 2's 16-bit L*a*b* encoding),
    /// whose grid LittleCMS interpolates trilinearly.
    static let lutLabRGB = "LUT-Lab-RGB.icc"
    static let generated: [String: [UInt8]] = [lutRGB: lutProfile(), lutLabRGB: lutProfile(lab: true)]

    static let pairs: [Pair] = [
        Pair(source: icc + "colord/AdobeRGB1998.icc", destination: displayP3, intent: .perceptual),
        Pair(source: icc + "colord/AdobeRGB1998.icc", destination: icc + "colord/ProPhotoRGB.icc", intent: .perceptual),
        Pair(source: icc + "colord/ProPhotoRGB.icc", destination: icc + "colord/AdobeRGB1998.icc", intent: .relativeColorimetric),
        Pair(source: icc + "sRGB.icc", destination: icc + "colord/ProPhotoRGB.icc", intent: .perceptual),
        Pair(source: icc + "ghostscript/a98.icc", destination: icc + "ghostscript/rommrgb.icc", intent: .perceptual),
        Pair(source: icc + "colord/WideGamutRGB.icc", destination: icc + "colord/Rec709.icc", intent: .perceptual),
        Pair(source: icc + "ghostscript/scrgb.icc", destination: icc + "colord/AdobeRGB1998.icc", intent: .perceptual),
        Pair(source: icc + "colord/AdobeRGB1998.icc", destination: icc + "ghostscript/sgray.icc", intent: .perceptual),
        Pair(source: icc + "ghostscript/a98.icc", destination: icc + "Gray.icc", intent: .relativeColorimetric),
        Pair(source: icc + "ghostscript/default_gray.icc", destination: icc + "colord/ProPhotoRGB.icc", intent: .perceptual),
        Pair(source: icc + "Gray-CIE_L.icc", destination: icc + "ghostscript/sgray.icc", intent: .perceptual),
        Pair(source: icc + "ghostscript/default_cmyk.icc", destination: icc + "colord/AdobeRGB1998.icc", intent: .perceptual),
        Pair(source: icc + "colord/ProPhotoRGB.icc", destination: lutRGB, intent: .perceptual),
        Pair(source: icc + "ghostscript/a98.icc", destination: lutRGB, intent: .relativeColorimetric),
        Pair(source: icc + "ghostscript/a98.icc", destination: lutLabRGB, intent: .relativeColorimetric),
    ]

    /// The bytes of ``lutRGB``: A2B0 maps device (r, g, b) to XYZ = M·(r, g, b)^2.2, B2A0 the inverse,
    /// each stored in the u1Fixed15 XYZ encoding of ICC.1:2022 §6.3.4.3.
    static func lutProfile(lab: Bool = false) -> [UInt8] {
        let m = [[0.60974, 0.20528, 0.14919], [0.31111, 0.62567, 0.06322], [0.01947, 0.06087, 0.74457]]
        // The inverse of m, by cofactors.
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        var inverse = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 {
                let r = [0, 1, 2].filter { $0 != j }, c = [0, 1, 2].filter { $0 != i }
                let minor = m[r[0]][c[0]] * m[r[1]][c[1]] - m[r[0]][c[1]] * m[r[1]][c[0]]
                inverse[i][j] = ((i + j) % 2 == 0 ? 1 : -1) * minor / det
            }
        }
        func word(_ x: Double) -> UInt16 { UInt16(max(0, min(65535, (x * 65535).rounded()))) }
        func power(_ x: Double, _ y: Double) -> Double { x <= 0 ? 0 : Foundation.pow(x, y) }
        var forward = [UInt16](), backward = [UInt16]()
        let points = 17
        for a in 0..<points {
            for b in 0..<points {
                for c in 0..<points {
                    let node = [a, b, c].map { Double($0) / Double(points - 1) }
                    let linear = node.map { power($0, 2.2) }
                    for row in m { forward.append(word((row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2]) * 32768 / 65535)) }
                    var xyz = node.map { $0 * 65535 / 32768 }
                    if lab {
                        // Version 2 L*a*b* encoding: 0xFF00 is L* 100 and a*, b* 127 (ICC.1:2001 §6.5.12).
                        let e = node.map { $0 * 65535 / 65280 }
                        let l = e[0] * 100, a = e[1] * 255 - 128, b = e[2] * 255 - 128
                        let fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200
                        func f(_ t: Double) -> Double { t > 24.0 / 116 ? t * t * t : 108.0 / 841 * (t - 16.0 / 116) }
                        xyz = [f(fx) * 0.9642, f(fy), f(fz) * 0.8249]
                    }
                    for row in inverse {
                        let v = row[0] * xyz[0] + row[1] * xyz[1] + row[2] * xyz[2]
                        backward.append(word(power(min(1, max(0, v)), 1 / 2.2)))
                    }
                }
            }
        }
        var builder = ICCProfileBuilder(connectionSpace: lab ? "Lab " : "XYZ ")
        builder.tags = [("wtpt", ICCProfileBuilder.xyz(0.9642, 1, 0.8249))]
        if !lab { builder.tags.append(("A2B0", ICCProfileBuilder.mft2(inputs: 3, outputs: 3, points: UInt8(points), samples: forward))) }
        builder.tags.append(("B2A0", ICCProfileBuilder.mft2(inputs: 3, outputs: 3, points: UInt8(points), samples: backward)))
        return builder.build()
    }

    /// Whether python3 with imagecodecs runs here and every profile of ``pairs`` is installed.
    static let isAvailable: Bool = {
        let installed = pairs.allSatisfy { pair in
            [pair.source, pair.destination].allSatisfy { !$0.contains("/") || FileManager.default.fileExists(atPath: $0) }
        }
        guard installed else { return false }
        return ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", "import numpy, imagecodecs; imagecodecs.cms_profile('srgb')"])?.status == 0
    }()

    /// A profile of ``pairs``, Display P3 as the Python run wrote it.
    static func profile(_ path: String) throws -> ICC.Profile {
        try ICC.Profile(parsing: bytes(path))
    }

    static func bytes(_ path: String) -> [UInt8] {
        if let bytes = generated[path] ?? run.profiles[path] { return bytes }
        return (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }

    /// A 32-level RGB cube (8-bit) and 20 000 pseudo-random 16-bit RGB triples with ramps;
    /// all 256 greys and 4 096 16-bit greys; a 10-level CMYK hypercube.
    static let rgb8: [UInt8] = {
        let levels = (0..<32).map { UInt8(($0 * 255 + 15) / 31) }
        return levels.flatMap { r in levels.flatMap { g in levels.flatMap { b in [r, g, b] } } }
    }()
    static let rgb16: [UInt16] = {
        var values = [UInt16]()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20000 * 3 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(UInt16(truncatingIfNeeded: state >> 48))
        }
        for v in stride(from: 0, through: 65535, by: 257) { values += [UInt16(v), UInt16(v), UInt16(v), UInt16(v), 0, 0] }
        for v in 0..<256 { values += [UInt16(v), UInt16(v * 3 / 2), UInt16(v / 2)] }
        return values
    }()
    static let gray8: [UInt8] = (0...255).map { UInt8($0) }
    static let gray16: [UInt16] = (0..<4096).map { UInt16($0 * 65535 / 4095) } + (0..<512).map { UInt16($0) }
    static let cmyk8: [UInt8] = {
        let levels = (0..<10).map { UInt8(($0 * 255 + 4) / 9) }
        return levels.flatMap { c in levels.flatMap { m in levels.flatMap { y in levels.flatMap { k in [c, m, y, k] } } } }
    }()

    static let script = """
    import sys, numpy as np, imagecodecs
    out = sys.argv[1]
    v = np.arange(4096) / 4095
    table = np.where(v > 0.04045, ((v + 0.055) / 1.055) ** 2.4, v / 12.92).astype(np.float32)
    p3 = imagecodecs.cms_profile("rgb", whitepoint=[0.3127, 0.3290], primaries=[0.68, 0.32, 0.265, 0.69, 0.15, 0.06],
                                 transferfunction=table)
    open(f"{out}/DisplayP3.icc", "wb").write(p3)
    spaces = {b"RGB ": ("rgb", 3), b"GRAY": ("gray", 1), b"CMYK": ("cmyk", 4)}
    patterns = {}
    for name in ("rgb8", "rgb16", "gray8", "gray16", "cmyk8"):
        dtype = np.uint16 if name.endswith("16") else np.uint8
        patterns[name] = np.frombuffer(open(f"{out}/{name}.in", "rb").read(), dtype=dtype)
    for index, spec in enumerate(sys.argv[2:]):
        src, dst, intent = spec.split("|")
        src = open(src if "/" in src else f"{out}/{src}", "rb").read()
        dst = open(dst if "/" in dst else f"{out}/{dst}", "rb").read()
        (space, n), (outspace, _) = spaces[src[16:20]], spaces[dst[16:20]]
        for depth in ("8", "16"):
            if space == "cmyk" and depth == "16":
                continue
            data = patterns[space + depth]
            shaped = data.reshape(1, -1, n) if n > 1 else data.reshape(1, -1)
            result = imagecodecs.cms_transform(shaped, src, dst, colorspace=space, outcolorspace=outspace, intent=int(intent))
            open(f"{out}/{index}.{depth}", "wb").write(np.ascontiguousarray(result).tobytes())
    """

    /// One Python run for every pair.
    static let run: (conversions: [Int: Conversion], profiles: [String: [UInt8]]) = {
        guard isAvailable else { return ([:], [:]) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-p2p-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ bytes: [UInt8]) { try? Data(bytes).write(to: directory.appendingPathComponent(name + ".in")) }
        func words(_ values: [UInt16]) -> [UInt8] { values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] } }
        for (name, bytes) in generated { try? Data(bytes).write(to: directory.appendingPathComponent(name)) }
        write("rgb8", rgb8); write("rgb16", words(rgb16)); write("gray8", gray8); write("gray16", words(gray16)); write("cmyk8", cmyk8)
        let specs = pairs.map { "\($0.source)|\($0.destination)|\($0.intent.rawValue)" }
        guard let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script, directory.path] + specs),
              result.status == 0 else { return ([:], [:]) }
        var profiles = [String: [UInt8]]()
        profiles[displayP3] = try? [UInt8](Data(contentsOf: directory.appendingPathComponent(displayP3)))
        var conversions = [Int: Conversion]()
        for (index, pair) in pairs.enumerated() {
            let space = { (path: String) -> Int in
                let bytes = generated[path] ?? profiles[path] ?? (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
                guard bytes.count > 20 else { return 0 }
                return switch String(decoding: bytes[16..<20], as: UTF8.self) { case "GRAY": 1; case "CMYK": 4; default: 3 }
            }
            let inputs = space(pair.source), outputs = space(pair.destination)
            guard let out8 = try? [UInt8](Data(contentsOf: directory.appendingPathComponent("\(index).8"))) else { continue }
            let out16 = (try? [UInt8](Data(contentsOf: directory.appendingPathComponent("\(index).16")))) ?? []
            let values16 = stride(from: 0, to: out16.count - 1, by: 2).map { UInt16(out16[$0]) | UInt16(out16[$0 + 1]) << 8 }
            conversions[index] = Conversion(
                inputChannels: inputs, outputChannels: outputs,
                input8: inputs == 1 ? gray8 : inputs == 4 ? cmyk8 : rgb8, output8: out8,
                input16: inputs == 1 ? gray16 : inputs == 4 ? [] : rgb16, output16: values16)
        }
        return (conversions, profiles)
    }()
}
