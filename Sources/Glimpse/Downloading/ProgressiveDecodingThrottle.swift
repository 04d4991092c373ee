/// Feeds a progressive download's bytes to an incremental decoder as they
/// arrive and says when a partial image is due, so that callers see the image
/// build up without a decode-and-copy per network packet.
///
/// The decoder sees every byte once; ``finish()`` then completes the same
/// decoder, so progressive mode costs no second decode.
struct ProgressiveDecodingThrottle: Sendable {
    let throttle: ImageDownloadRequest.ProgressiveThrottle
    let options: DecodingOptions
    private var decoder: AutoDecoder
    /// The first decoding error; later bytes are not fed.
    private(set) var error: ImageDecodingError?
    private var isComplete = false
    private var lastEmission: ContinuousClock.Instant?
    private var lastEmittedBytes: Int64 = 0

    init(registry: DecoderRegistry, options: DecodingOptions, throttle: ImageDownloadRequest.ProgressiveThrottle) {
        self.throttle = throttle
        self.options = options
        self.decoder = AutoDecoder(registry: registry, options: options)
    }

    /// Feeds `bytes`; returns a partial image when one is due.
    mutating func append(_ bytes: [UInt8], received: Int64, expected: Int64?, now: ContinuousClock.Instant) -> Image? {
        guard error == nil, !isComplete else { return nil }
        do throws(ImageDecodingError) {
            isComplete = try decoder.append(bytes) == .complete
        } catch {
            self.error = error
            return nil
        }
        guard !isComplete, isDue(received: received, expected: expected, now: now),
              let partial = decoder.partialImage() else { return nil }
        lastEmission = now
        lastEmittedBytes = received
        return partial
    }

    private func isDue(received: Int64, expected: Int64?, now: ContinuousClock.Instant) -> Bool {
        switch throttle {
        case .interval(let interval):
            guard let last = lastEmission else { return true }
            return now - last >= interval
        case .progressStep(let fraction):
            let step = max(0, min(1, fraction))
            if let expected, expected > 0 {
                return Double(received - lastEmittedBytes) >= step * Double(expected)
            }
            // Unknown length: 64 KiB per tenth of a step.
            return Double(received - lastEmittedBytes) >= max(1, step * 10 * 65_536)
        }
    }

    /// Ends the input and returns the image.
    mutating func finish() throws(ImageDecodingError) -> Image {
        if let error { throw error }
        return try decoder.finish()
    }
}
