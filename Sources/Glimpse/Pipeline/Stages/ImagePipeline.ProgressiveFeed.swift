import Synchronization
import GlimpseCache

extension ImagePipeline {
    /// Progressive decoding of one job's download: body pieces arrive from the
    /// loader in order, and are fed to one incremental decoder by jobs on the
    /// pipeline's executor (never the loader's thread, never the cooperative
    /// pool). Pieces that arrive while a job runs are taken by that job, so at
    /// most one job per download is queued or running and the decoder sees
    /// every byte once, in order.
    ///
    /// When the body is complete, ``finish(count:_:)`` completes the same
    /// decoder, so the final image costs no second decode of the whole body.
    final class ProgressiveFeed: Sendable {
        typealias Finished = @Sendable (Image?) -> Void

        private struct State: Sendable {
            var pending: [UInt8] = []
            var received: Int64 = 0
            var isScheduled = false
            /// The download finished: partial images are no longer wanted.
            var isClosed = false
            var decoder: ProgressiveDecodingThrottle?
            /// Set by ``finish(count:_:)``: the body length and who waits for the image.
            var finishing: (count: Int, finished: Finished)?

            /// Marks a drain job as queued; whether the caller must queue one.
            mutating func schedule() -> Bool {
                guard !isScheduled else { return false }
                isScheduled = true
                return true
            }
        }

        private let state: Lock<State>
        private let executor: ProcessingExecutor
        private let priority: ImageDownloadPriority
        private let processors: [any ImageTransformer]
        private let deliver: @Sendable (Image) -> Void

        /// - Parameter throttle: by default at most ten partial images a second (each is a copy of the canvas).
        init(registry: DecoderRegistry, options: DecodingOptions, processors: [any ImageTransformer],
             executor: ProcessingExecutor, priority: ImageDownloadPriority,
             throttle: ImageDownloadRequest.ProgressiveThrottle = .interval(.milliseconds(100)),
             deliver: @escaping @Sendable (Image) -> Void) {
            state = Lock(State(decoder: ProgressiveDecodingThrottle(registry: registry, options: options,
                                                                      throttle: throttle)))
            self.executor = executor
            self.priority = priority
            self.processors = processors
            self.deliver = deliver
        }

        /// A piece of the body, from the loader.
        func append(_ piece: [UInt8]) {
            let schedules = state.withLock { state -> Bool in
                guard !state.isClosed, state.finishing == nil else { return false }
                state.pending.append(contentsOf: piece)
                return state.schedule()
            }
            if schedules { executor.enqueue(priority: priority) { [self] in drain() } }
        }

        /// Ends partial images without a final image (the load failed or left).
        func close() {
            let finishing = state.withLock { state in
                state.isClosed = true
                state.pending = []
                state.decoder = nil
                defer { state.finishing = nil }
                return state.finishing
            }
            finishing?.finished(nil)
        }

        /// The body is complete (`count` bytes): after the pieces still queued,
        /// the decoder that saw them all is finished on the executor and its image
        /// handed to `finished` — or `nil` when the decoder did not see exactly
        /// `count` bytes (a retry sent some twice, a data transform changed them) or
        /// failed, and the caller decodes the body itself. Ends partial images.
        func finish(count: Int, _ finished: @escaping Finished) {
            let schedules = state.withLock { state -> Bool? in
                guard !state.isClosed, state.finishing == nil else { return nil }
                state.finishing = (count, finished)
                return state.schedule()
            }
            switch schedules {
            case nil: finished(nil)
            case true?: executor.enqueue(priority: priority) { [self] in drain() }
            case false?: break
            }
        }

        /// ``finish(count:_:)`` for async callers.
        func finish(count: Int) async -> Image? {
            await withCheckedContinuation { continuation in
                finish(count: count) { image in continuation.resume(returning: image) }
            }
        }

        private enum Step {
            case feed([UInt8], received: Int64, ProgressiveDecodingThrottle)
            case finish(ProgressiveDecodingThrottle, complete: Bool, Finished)
            case idle
        }

        /// On an executor thread: feeds what arrived, hands out a partial image
        /// when due, and finishes the decoder when asked. At most one drain job is
        /// queued or running per feed, so the decoder sees every byte once, in order.
        private func drain() {
            while true {
                let step = state.withLock { state -> Step in
                    guard !state.isClosed, let decoder = state.decoder else {
                        state.isScheduled = false
                        return .idle
                    }
                    if !state.pending.isEmpty {
                        var bytes: [UInt8] = []
                        swap(&bytes, &state.pending)
                        state.received += Int64(bytes.count)
                        // Taken out while it decodes; only this job touches it meanwhile.
                        state.decoder = nil
                        return .feed(bytes, received: state.received, decoder)
                    }
                    guard let finishing = state.finishing else {
                        state.isScheduled = false
                        return .idle
                    }
                    state.isClosed = true
                    state.isScheduled = false
                    state.decoder = nil
                    state.finishing = nil
                    return .finish(decoder, complete: state.received == Int64(finishing.count), finishing.finished)
                }
                switch step {
                case .idle:
                    return
                case .finish(var decoder, let complete, let finished):
                    finished(complete ? try? decoder.finish() : nil)
                    return
                case .feed(let bytes, let received, var decoder):
                    let partial = decoder.append(bytes, received: received, expected: nil, now: .now)
                    let open = state.withLock { state -> Bool in
                        guard !state.isClosed else { return false }
                        state.decoder = decoder
                        return true
                    }
                    guard open else { return }
                    // No preview once the final image is asked for: it follows at once.
                    guard var image = partial, state.withLock({ $0.finishing == nil }) else { continue }
                    // A preview the processors reject is not handed out half processed.
                    var rejected = false
                    for processor in processors where !rejected {
                        if let processed = try? processor.transform(image) { image = processed } else { rejected = true }
                    }
                    if !rejected { deliver(image) }
                }
            }
        }
    }
}
