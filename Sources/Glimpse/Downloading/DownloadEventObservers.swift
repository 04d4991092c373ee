import GlimpseCache
import Synchronization

/// The open event streams of a loader: ``ImageDownloader/events()`` and the
/// AsyncHTTPClient loader's, so that both hand out and finish streams alike.
///
/// Any number of observers, each with a stream of its own that sees every event
/// yielded after it was made (buffered without limit, as `AsyncStream`'s default).
/// ``finish()`` closes it for good: every open stream ends after the events
/// already yielded to it, and a stream made later ends at once.
package final class DownloadEventObservers: Sendable {
    private struct State: Sendable {
        var continuations: [Int: AsyncStream<ImageDownloadEvent>.Continuation] = [:]
        var next = 0
        var isFinished = false
    }

    private let state = Lock(State())
    /// How many streams are open, readable without the lock: a loader yields several
    /// events per transfer and usually nobody listens.
    private let count = Atomic<Int>(0)

    package init() {}

    /// A stream of the events yielded from now until ``finish()`` or until the stream
    /// is dropped.
    package func makeStream() -> AsyncStream<ImageDownloadEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ImageDownloadEvent.self)
        let registered: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let id = state.next
            state.next += 1
            state.continuations[id] = continuation
            count.store(state.continuations.count, ordering: .releasing)
            return id
        }
        guard let registered else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            state.withLock { state in
                state.continuations.removeValue(forKey: registered)
                count.store(state.continuations.count, ordering: .releasing)
            }
        }
        return stream
    }

    /// Hands `event` to every open stream, or to none if ``finish()`` came first.
    ///
    /// Yielded under the lock so that an event and a concurrent ``finish()`` are ordered
    /// for every stream alike: with the streams copied out first, a finish between two
    /// yields ended one stream before the event the other had already received (a
    /// shutdown test saw its two streams disagree). Holding the lock is safe: `yield`
    /// on an unbounded stream only appends or resumes its consumer, and never runs
    /// `onTermination` (which takes this lock).
    package func yield(_ event: ImageDownloadEvent) {
        guard count.load(ordering: .acquiring) > 0 else { return }
        state.withLock { state in
            for continuation in state.continuations.values { continuation.yield(event) }
        }
    }

    /// Ends every open stream and every later one. Idempotent.
    package func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer {
                state.continuations = [:]
                count.store(0, ordering: .releasing)
            }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
