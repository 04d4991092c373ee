import Foundation
@testable import GlimpseCodec
import Testing

/// Glimpse's conversions to sRGB against LittleCMS 2's, per installed profile:
/// at least 99 % of channel values within 1 and none further than 4.
@Suite("ColorTransform against LittleCMS 2", .enabled(if: LittleCMSReference.isAvailable))
struct ColorTransformReferenceTests {
    /// Channel-value agreement of one conversion.
    struct Agreement: CustomStringConvertible {
        var samples = 0, withinOne = 0, worst = 0
        var fractionWithinOne: Double { samples == 0 ? 0 : Double(withinOne) / Double(samples) }
        var description: String {
            let percent = (fractionWithinOne * 10000).rounded() / 100
            return "\(samples) values, \(percent) % within 1, worst \(worst)"
        }
    }

    static func compare(_ conversion: LittleCMSReference.Conversion) throws -> (Agreement, ColorTransform) {
        let profile = try ICC.Profile(parsing: [UInt8](Data(contentsOf: conversion.profile)))
        let transform = try ColorTransform(source: profile, intent: conversion.intent,
                                           neutralBlackPoint: LittleCMSReference.neutralizesBlackPoint)
        let pixels = conversion.output.count / 3
        var ours = [UInt8](repeating: 0, count: pixels * 4)
        switch transform.input {
        case .cmyk:
            conversion.input.withUnsafeBufferPointer { cmyk in
                ours.withUnsafeMutableBufferPointer { transform.convertCMYK(cmyk, into: $0) }
            }
        case .gray, .rgb:
            let channels = transform.input == .gray ? 1 : 3
            for i in 0..<pixels {
                for k in 0..<3 { ours[i * 4 + k] = conversion.input[i * channels + (channels == 1 ? 0 : k)] }
                ours[i * 4 + 3] = 255
            }
            var buffer = try #require(PixelBuffer(width: pixels, height: 1, format: .rgba8, bytes: ours))
            transform.apply(to: &buffer)
            ours = buffer.bytes
        }
        var agreement = Agreement()
        for i in 0..<pixels {
            for k in 0..<3 {
                let difference = abs(Int(ours[i * 4 + k]) - Int(conversion.output[i * 3 + k]))
                agreement.samples += 1
                if difference <= 1 { agreement.withinOne += 1 }
                agreement.worst = max(agreement.worst, difference)
            }
        }
        return (agreement, transform)
    }

    static var referenced: [URL] {
        LittleCMSReference.profiles.filter { LittleCMSReference.conversions[LittleCMSReference.key($0, .perceptual)] != nil }
    }

    @Test("perceptual intent", arguments: referenced)
    func perceptual(_ profile: URL) throws {
        let conversion = try #require(LittleCMSReference.conversions[LittleCMSReference.key(profile, .perceptual)])
        let (agreement, transform) = try Self.compare(conversion)
        print("lcms2 perceptual \(profile.lastPathComponent) [\(transform.input)\(transform.isIdentity ? ", identity" : "")]: \(agreement)")
        #expect(agreement.fractionWithinOne >= 0.99, "\(profile.lastPathComponent): \(agreement)")
        #expect(agreement.worst <= 4, "\(profile.lastPathComponent): \(agreement)")
    }

    @Test("relative colorimetric intent", arguments: referenced)
    func relative(_ profile: URL) throws {
        let conversion = try #require(LittleCMSReference.conversions[LittleCMSReference.key(profile, .relativeColorimetric)])
        let (agreement, _) = try Self.compare(conversion)
        print("lcms2 relative \(profile.lastPathComponent): \(agreement)")
        #expect(agreement.fractionWithinOne >= 0.99, "\(profile.lastPathComponent): \(agreement)")
        #expect(agreement.worst <= 4, "\(profile.lastPathComponent): \(agreement)")
    }
}
