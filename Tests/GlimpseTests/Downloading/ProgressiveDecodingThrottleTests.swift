@testable import Glimpse
import Testing

@Suite("Progressive decoding throttle")
struct ProgressiveDecodingThrottleTests {
    private let file = RowsTestDecoder.encode(width: 4, height: 8)

    @Test func intervalThrottleEmitsAtMostOncePerInterval() throws {
        var throttle = ProgressiveDecodingThrottle(registry: RowsTestDecoder.registry, options: DecodingOptions(),
                                                   throttle: .interval(.milliseconds(100)))
        let start = ContinuousClock.now
        var emitted: [Int] = []
        // One row (16 bytes) per step, 30 ms apart.
        var offset = 0
        var step = 0
        while offset < file.count {
            let end = min(file.count, offset == 0 ? 6 + 16 : offset + 16)
            let partial = throttle.append(Array(file[offset..<end]), received: Int64(end), expected: Int64(file.count),
                                          now: start + .milliseconds(30 * step))
            if partial != nil { emitted.append(step) }
            offset = end
            step += 1
        }
        #expect(emitted == [0, 4], "steps 0 and 4 (120 ms later); the last row completes the image, which is not partial")
        let image = try throttle.finish()
        #expect(image.width == 4 && image.height == 8)
        #expect(image.pixels.bytes == Array(file[6...]))
    }

    @Test func progressStepThrottleFollowsTheFraction() {
        var throttle = ProgressiveDecodingThrottle(registry: RowsTestDecoder.registry, options: DecodingOptions(),
                                                   throttle: .progressStep(0.25))
        let now = ContinuousClock.now
        var emissions = 0
        for end in stride(from: 22, to: file.count, by: 16) {
            if throttle.append(Array(file[max(0, end - (end == 22 ? 22 : 16))..<end]), received: Int64(end),
                               expected: Int64(file.count), now: now) != nil {
                emissions += 1
            }
        }
        // 134 bytes expected: a partial once another 33.5 bytes arrived (at 38 and 86).
        #expect(emissions == 2)
    }

    @Test func decodingErrorsStopFeedingAndSurfaceAtFinish() {
        var throttle = ProgressiveDecodingThrottle(registry: RowsTestDecoder.registry, options: DecodingOptions(),
                                                   throttle: .interval(.zero))
        #expect(throttle.append([UInt8](repeating: 0, count: 13), received: 13, expected: nil, now: .now) == nil)
        let finished = throttle
        #expect(throws: ImageDecodingError.unsupportedFormat(.unknown)) {
            var copy = finished
            _ = try copy.finish()
        }
    }
}
