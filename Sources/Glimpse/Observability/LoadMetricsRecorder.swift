/// Collects the durations of one load job (or one ``ImagePipeline/data(for:format:)``
/// call) for its ``ImageTask/Metrics``, from the same measurements the stage
/// timers record.
///
/// The job's task carries it as a task-local value, so the stages reach it without
/// passing it along; work on an executor thread (outside any task) hands its
/// durations back to the awaiting stage, which adds them here.
final class LoadMetricsRecorder: Sendable {
    /// The recorder of the job the current task runs, if any.
    @TaskLocal static var current: LoadMetricsRecorder?

    private struct State: Sendable {
        var metrics = ImageTask.Metrics(tier: .network)
        /// Time inside the download stage spent waiting for the executor's byte bound:
        /// counted as queued, so taken out of the download.
        var downloadWait: Duration = .zero
    }

    private let state = Lock(State())

    private static func adding(_ duration: Duration, to total: inout Duration?) {
        total = (total ?? .zero) + duration
    }

    /// A stage timed by ``PipelineInstruments/stage(_:url:times:_:)`` or by hand. The
    /// `disk` stage's timer covers the decode and processing of what the tier returned
    /// too, so the data tier's read is added apart (``addDataLookup(_:)``).
    func add(_ stage: PipelineInstruments.Stage, _ duration: Duration) {
        state.withLock { state in
            switch stage {
            case .disk: break
            case .download: Self.adding(duration, to: &state.metrics.download)
            case .decode: Self.adding(duration, to: &state.metrics.decode)
            case .process: Self.adding(duration, to: &state.metrics.process)
            case .encode: Self.adding(duration, to: &state.metrics.encode)
            case .store: Self.adding(duration, to: &state.metrics.store)
            }
        }
    }

    func addQueued(_ duration: Duration) {
        state.withLock { Self.adding(duration, to: &$0.metrics.queued) }
    }

    func addDataLookup(_ duration: Duration) {
        state.withLock { Self.adding(duration, to: &$0.metrics.dataLookup) }
    }

    /// A wait for the executor's byte bound inside the download stage.
    func addDownloadWait(_ duration: Duration) {
        state.withLock { state in
            Self.adding(duration, to: &state.metrics.queued)
            state.downloadWait += duration
        }
    }

    /// Another load's figures, for work built on it (``ImagePipeline/data(for:format:)``).
    func add(_ other: ImageTask.Metrics) {
        state.withLock { state in
            for (value, keyPath) in [(other.queued, \ImageTask.Metrics.queued), (other.dataLookup, \.dataLookup),
                                     (other.download, \.download), (other.decode, \.decode),
                                     (other.process, \.process), (other.encode, \.encode), (other.store, \.store)] {
                if let value { Self.adding(value, to: &state.metrics[keyPath: keyPath]) }
            }
        }
    }

    /// The figures so far, for a load `tier` answered that read `bytes` in `total`.
    func metrics(tier: ImageTier, bytes: Int?, total: Duration?) -> ImageTask.Metrics {
        state.withLock { state in
            var metrics = state.metrics
            if let download = metrics.download, state.downloadWait > .zero {
                metrics.download = max(.zero, download - state.downloadWait)
            }
            metrics.tier = tier
            metrics.bytes = bytes
            metrics.total = total
            return metrics
        }
    }
}

extension ImagePipeline {
    /// Runs a load job's stages with a recorder of their durations, and puts the
    /// figures on its result (every waiter of the job gets the same).
    func measured(_ body: () async -> Result<ImageResult, ImageLoadError>) async -> Result<ImageResult, ImageLoadError> {
        let recorder = LoadMetricsRecorder()
        let start = instruments.now()
        let result = await LoadMetricsRecorder.$current.withValue(recorder) { await body() }
        let total = instruments.now() - start
        return result.map { loaded in
            var loaded = loaded
            loaded.metrics = recorder.metrics(tier: loaded.tier, bytes: loaded.data?.count, total: total)
            return loaded
        }
    }

    /// Measures a wait for the processing executor: `submitted` is when the work was
    /// handed to it, `started` when a thread took it.
    func recordQueued(from submitted: Duration, to started: Duration) {
        LoadMetricsRecorder.current?.addQueued(max(.zero, started - submitted))
    }
}
