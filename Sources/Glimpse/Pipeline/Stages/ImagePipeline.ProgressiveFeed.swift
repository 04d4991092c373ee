import Synchronization

extension ImagePipeline {
    /// Progressive decoding of one job's download: body pieces arrive from the
    /// loader in order, and are fed to one incremental decoder by jobs on the
    /// pipeline's executor (never the loader's thread, never the cooperative
    /// pool). Pieces that arrive while a job runs are taken by that job, so at
    /// most one job per download is queued or running and the decoder sees
    /// every byte once, in order.
    final class ProgressiveFeed: Sendable {
        private struct State: Sendable {
            var pending: [UInt8] = []
            var received: Int64 = 0
            var isScheduled = false
            /// The download finished: partial images are no longer wanted.
            var isClosed = false
            var decoder: ProgressiveDecodingThrottle?
        }

        private let state: Mutex<State>
        private let executor: ProcessingExecutor
        private let priority: ImageDownloadPriority
        private let processors: [any ImageTransformer]
        private let deliver: @Sendable (Image) -> Void

        init(registry: DecoderRegistry, options: DecodingOptions, processors: [any ImageTransformer],
             executor: ProcessingExecutor, priority: ImageDownloadPriority, deliver: @escaping @Sendable (Image) -> Void) {
            // At most ten partial images a second: each is a copy of the canvas.
            state = Mutex(State(decoder: ProgressiveDecodingThrottle(registry: registry, options: options,
                                                                      throttle: .interval(.milliseconds(100)))))
            self.executor = executor
            self.priority = priority
            self.processors = processors
            self.deliver = deliver
        }

        /// A piece of the body, from the loader.
        func append(_ piece: [UInt8]) {
            let schedules = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.pending.append(contentsOf: piece)
                guard !state.isScheduled else { return false }
                state.isScheduled = true
                return true
            }
            if schedules { executor.enqueue(priority: priority) { [self] in drain() } }
        }

        /// Ends partial images (the final decode follows).
        func close() {
            state.withLock { state in
                state.isClosed = true
                state.pending = []
                state.decoder = nil
            }
        }

        /// On an executor thread: feeds what arrived, hands out a partial image when due.
        private func drain() {
            while true {
                let taken = state.withLock { state -> ([UInt8], Int64, ProgressiveDecodingThrottle)? in
                    guard !state.isClosed, !state.pending.isEmpty, let decoder = state.decoder else {
                        state.isScheduled = false
                        return nil
                    }
                    var bytes: [UInt8] = []
                    swap(&bytes, &state.pending)
                    state.received += Int64(bytes.count)
                    // Taken out while it decodes; only this job touches it meanwhile.
                    state.decoder = nil
                    return (bytes, state.received, decoder)
                }
                guard let (bytes, received, taken) = taken else { return }
                var decoder = taken
                let partial = decoder.append(bytes, received: received, expected: nil, now: .now)
                let open = state.withLock { state -> Bool in
                    guard !state.isClosed else { return false }
                    state.decoder = decoder
                    return true
                }
                guard open else { return }
                guard var image = partial else { continue }
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
