import Foundation
@testable import GlimpseCodec
import Testing
import TestSupport

/// Conversions between two installed profiles (``ColorTransform/init(source:destination:intent:)``)
/// against LittleCMS 2: 8-bit, at least 99 % of channel values within 1 and none further than 4;
/// 16-bit (RGBA16 buffers, LittleCMS's `TYPE_RGB_16`/`TYPE_GRAY_16`) within 2 steps of 65 535
/// (measured: within 1 for every pair but one, a known issue).
@Suite("Profile to profile against LittleCMS 2", .enabled(if: ProfileToProfileReference.isAvailable))
struct ProfileToProfileTests {
    /// Channel-value agreement of one conversion.
    struct Agreement: CustomStringConvertible {
        var samples = 0, withinOne = 0, worst = 0
        var fractionWithinOne: Double { samples == 0 ? 0 : Double(withinOne) / Double(samples) }
        var description: String {
            "\(samples) values, \((fractionWithinOne * 10000).rounded() / 100) % within 1, worst \(worst)"
        }

        mutating func add(_ a: Int, _ b: Int) {
            let difference = abs(a - b)
            samples += 1
            if difference <= 1 { withinOne += 1 }
            worst = max(worst, difference)
        }
    }

    /// The transform for a pair, with LittleCMS 2.18–2.19's black point when imagecodecs bundles one
    /// (see ``LittleCMSReference/neutralizesBlackPoint``; imagecodecs 2026.3 bundles 2.18).
    static func transform(_ pair: ProfileToProfileReference.Pair) throws -> ColorTransform {
        let source = try ProfileToProfileReference.profile(pair.source)
        let destination = try ProfileToProfileReference.profile(pair.destination)
        let neutral = imagecodecsNeutralizesBlackPoint
        let output = try ColorTransform.Destination(profile: destination, intent: pair.intent, neutralBlackPoint: neutral)
        return try ColorTransform(source: source, destination: output, intent: pair.intent, neutralBlackPoint: neutral)
    }

    static let imagecodecsNeutralizesBlackPoint: Bool = {
        let script = "import imagecodecs; print(imagecodecs.cms_version())"
        guard let result = ReferenceDecoder.run("/usr/bin/env", ["python3", "-c", script]), result.status == 0 else { return true }
        // "lcms2 2.18.0": the version is the last word.
        let version = result.output.split(whereSeparator: \.isWhitespace).last ?? ""
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return true }
        return !(parts[0] == 2 && (18...19).contains(parts[1]))
    }()

    static func reference(_ pair: ProfileToProfileReference.Pair) throws -> ProfileToProfileReference.Conversion {
        let index = try #require(ProfileToProfileReference.pairs.firstIndex(of: pair))
        return try #require(ProfileToProfileReference.run.conversions[index], "no LittleCMS result for \(pair.testDescription)")
    }

    @Test("8-bit", arguments: ProfileToProfileReference.pairs)
    func eightBit(_ pair: ProfileToProfileReference.Pair) throws {
        let reference = try Self.reference(pair)
        let transform = try Self.transform(pair)
        let n = reference.inputChannels, pixels = reference.input8.count / n
        var ours = [UInt8](repeating: 255, count: pixels * 4)
        if n == 4 {
            reference.input8.withUnsafeBufferPointer { cmyk in
                ours.withUnsafeMutableBufferPointer { transform.convertCMYK(cmyk, into: $0) }
            }
        } else {
            for i in 0..<pixels {
                for k in 0..<3 { ours[i * 4 + k] = reference.input8[i * n + (n == 1 ? 0 : k)] }
            }
            var buffer = try #require(PixelBuffer(width: pixels, height: 1, format: .rgba8, bytes: ours))
            transform.apply(to: &buffer)
            ours = buffer.bytes
        }
        var agreement = Agreement()
        let m = reference.outputChannels
        try #require(reference.output8.count == pixels * m)
        var worstAt = 0
        for i in 0..<pixels {
            for k in 0..<m {
                let before = agreement.worst
                agreement.add(Int(ours[i * 4 + k]), Int(reference.output8[i * m + k]))
                if agreement.worst > before { worstAt = i }
            }
            if m == 1 { #expect(ours[i * 4] == ours[i * 4 + 1] && ours[i * 4] == ours[i * 4 + 2]) }
        }
        let input = (0..<n).map { reference.input8[worstAt * n + $0] }
        let theirs = (0..<m).map { reference.output8[worstAt * m + $0] }
        print("lcms2 8-bit \(pair.testDescription): \(agreement); worst at \(input): ours \(Array(ours[worstAt * 4..<worstAt * 4 + 3])), lcms \(theirs)")
        #expect(agreement.fractionWithinOne >= 0.99, "\(pair.testDescription): \(agreement)")
        #expect(agreement.worst <= 4, "\(pair.testDescription): \(agreement)")
    }

    /// The largest 16-bit difference allowed. Glimpse interpolates the same 33-point grid with
    /// LittleCMS's own 15.16 fixed-point arithmetic; nodes are computed in `Double` with
    /// LittleCMS's `Float` stage boundaries, and differ by a rounding step at most.
    static let tolerance16 = 2

    /// CMYK sources are left out: Glimpse's CMYK path (the JPEG decoder's) is 8-bit only.
    @Test("16-bit", arguments: ProfileToProfileReference.pairs.filter { !$0.source.hasSuffix("cmyk.icc") })
    func sixteenBit(_ pair: ProfileToProfileReference.Pair) throws {
        let reference = try Self.reference(pair)
        let transform = try Self.transform(pair)
        let n = reference.inputChannels, pixels = reference.input16.count / n
        var samples = [UInt16](repeating: 65535, count: pixels * 4)
        for i in 0..<pixels {
            for k in 0..<3 { samples[i * 4 + k] = reference.input16[i * n + (n == 1 ? 0 : k)] }
        }
        let bytes = samples.withUnsafeBytes { [UInt8]($0) }
        var buffer = try #require(PixelBuffer(width: pixels, height: 1, format: .rgba16, bytes: bytes))
        transform.apply(to: &buffer)
        let ours = buffer.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
        let m = reference.outputChannels
        try #require(reference.output16.count == pixels * m)
        var agreement = Agreement()
        var worstAt = 0
        for i in 0..<pixels {
            for k in 0..<m {
                let before = agreement.worst
                agreement.add(Int(ours[i * 4 + k]), Int(reference.output16[i * m + k]))
                if agreement.worst > before { worstAt = i }
            }
        }
        let input = (0..<n).map { reference.input16[worstAt * n + $0] }
        let theirs = (0..<m).map { reference.output16[worstAt * m + $0] }
        print("lcms2 16-bit \(pair.testDescription): \(agreement); worst at \(input): ours \(Array(ours[worstAt * 4..<worstAt * 4 + 3])), lcms \(theirs)")
        if pair.destination == ProfileToProfileReference.lutRGB, pair.intent == .perceptual {
            // Known: with black point compensation into the B2A grid, about 3 % of the 33³ grid nodes
            // land one 16-bit XYZ word away from LittleCMS's, which the grid's steep shadow cells turn
            // into up to 7 output steps (≤ 0.01 % of values differ by more than 1); the cause of the
            // word difference is not found yet. Without compensation (the relative pair) all agree within 1.
            withKnownIssue("ProPhoto → LUT profile, perceptual: a few values up to 7 steps from lcms2") {
                #expect(agreement.worst <= Self.tolerance16, "\(pair.testDescription): \(agreement)")
            }
            #expect(agreement.fractionWithinOne >= 0.999 && agreement.worst <= 8, "\(pair.testDescription): \(agreement)")
        } else {
            #expect(agreement.worst <= Self.tolerance16, "\(pair.testDescription): \(agreement)")
        }
    }
}
