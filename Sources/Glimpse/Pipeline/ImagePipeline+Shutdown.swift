import GlimpseCache
import Synchronization

/// Graceful shutdown, for a server that was told to stop (SIGTERM, a `ServiceGroup`'s
/// graceful shutdown): nothing new starts, what the disk tier was promised is written,
/// and nothing is left running.
extension ImagePipeline {
    /// Stops the pipeline: later loads fail with ``ImageLoadError/shutDown``.
    ///
    /// In order:
    /// 1. refuses new loads (memory hits included);
    /// 2. cancels the loads in flight (their callers receive ``ImageLoadError/cancelled``),
    ///    so that none of them queues a disk write after the next step began;
    /// 3. waits, until `deadline` at the latest, for the disk writes queued so far
    ///    (``ImageCache/pendingWritesFinished()``) and then for the release of the shared
    ///    tier's fetch claims (``ImageCache/fetchClaimsReleased()``), so that other
    ///    processes need not wait a claim out;
    /// 4. shuts the loader down (``ImageDataLoading/shutdown()``: its transfers stop) and
    ///    lets the processing threads end.
    ///
    /// The loader is the pipeline's to stop: a loader shared with a pipeline that keeps
    /// running refuses that pipeline's loads too once this returns.
    ///
    /// Idempotent: a second call waits for the first one's work and returns its answer.
    ///
    /// - Parameter deadline: when to stop waiting for disk writes; writes still queued
    ///   then go on in the background but are not waited for.
    /// - Returns: whether the queued writes and claim releases finished before `deadline`.
    @discardableResult
    public func shutdown(deadline: ContinuousClock.Instant = .now + .seconds(10)) async -> Bool {
        let run: Task<Bool, Never> = shutdownRun.withLock { run in
            if let run { return run }
            let started = Task { [self] in await performShutdown(deadline: deadline) }
            run = started
            return started
        }
        return await run.value
    }

    private func performShutdown(deadline: ContinuousClock.Instant) async -> Bool {
        isShutDown.store(true, ordering: .releasing)
        instruments.logger.debug("pipeline shutting down")
        cancelAll()
        let cache = configuration.cache
        let drained = await Self.waitUntil(deadline) {
            await cache.pendingWritesFinished()
            await cache.fetchClaimsReleased()
        }
        if !drained { instruments.logger.debug("pipeline shutdown: disk writes still queued at the deadline") }
        await configuration.dataLoader.shutdown()
        executor.stop()
        return drained
    }

    /// Runs `work` in a task of its own and returns whether it ended before `deadline`;
    /// at the deadline it returns false and leaves `work` running (the waits it makes do
    /// not answer cancellation, and a task group would wait for them).
    static func waitUntil(_ deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let answered = ShutdownAnswer()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: @Sendable (Bool) -> Void = { value in
                // The first answer wins; the other finds the flag set.
                if answered.isSet.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                    continuation.resume(returning: value)
                }
            }
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                answer(false)
            }
            Task {
                await work()
                answer(true)
                timer.cancel()
            }
        }
    }
}

/// Which of the two racers of ``ImagePipeline/waitUntil(_:_:)`` answered first.
private final class ShutdownAnswer: Sendable {
    let isSet = Atomic<Bool>(false)
}
