import Synchronization
import GlimpseCache

/// One caller's load: its events as they happen, its result, a priority that
/// can change while it runs, and cancellation.
///
/// ```swift
/// let task = pipeline.imageTask(for: ImageRequest(url: url, options: .progressive))
/// for await event in task.events {
///     switch event {
///     case .progress(let received, let expected): print(received, expected ?? -1)
///     case .preview(let partial): show(partial)
///     case .finished(let result): print(result)
///     }
/// }
/// ```
///
/// Cancelling detaches only this caller (its result is
/// ``ImageLoadError/cancelled``); the shared work — the download above all —
/// stops only when no other caller waits for it.
public final class ImageTask: Sendable {
    /// What happens to a load, in order: progress and previews, then one `finished`.
    public enum Event: Sendable {
        /// `(received, expected)` bytes of the download; `expected` is `nil` when unknown.
        case progress(received: Int64, expected: Int64?)
        /// A partial image of a progressive load, or the cached image handed out
        /// first by ``ImageRequest/Options/deliverCachedFirst``.
        case preview(Image)
        /// The result; the stream ends after it.
        case finished(Result<ImageResult, ImageLoadError>)
    }

    private struct State: Sendable {
        var priority: ImageDownloadPriority
        /// The pipeline's waiter id, once the load is attached to a job.
        var waiter: UInt64?
        var cancelRequested = false
        var result: Result<ImageResult, ImageLoadError>?
        var resultWaiters: [CheckedContinuation<Result<ImageResult, ImageLoadError>, Never>] = []
    }

    /// The request this task loads.
    public let request: ImageRequest
    /// Progress, previews and the result, buffered (the newest 64) until read.
    /// One consumer; the stream finishes after ``Event/finished(_:)``.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let state: Lock<State>
    private let pipeline: ImagePipeline?

    init(request: ImageRequest, pipeline: ImagePipeline?) {
        self.request = request
        self.pipeline = pipeline
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(64))
        state = Lock(State(priority: request.priority))
    }

    /// The load's priority; changing it reaches the queued download (and the
    /// running URLSession task) when this caller's priority decides the job's.
    public var priority: ImageDownloadPriority {
        get { state.withLock { $0.priority } }
        set {
            let waiter = state.withLock { state -> UInt64? in
                state.priority = newValue
                return state.result == nil ? state.waiter : nil
            }
            if let waiter { pipeline?.setPriority(newValue, waiter: waiter) }
        }
    }

    /// Cancels this caller; its result becomes ``ImageLoadError/cancelled``
    /// unless it already finished.
    /// - Returns: whether it was still running (and not cancelled before).
    @discardableResult
    public func cancel() -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, UInt64?) in
            guard state.result == nil, !state.cancelRequested else { return (false, nil) }
            state.cancelRequested = true
            return (true, state.waiter)
        }
        if let waiter { _ = pipeline?.cancel(waiter: waiter) }
        return first
    }

    /// Whether the result is known.
    public var isFinished: Bool { state.withLock { $0.result != nil } }

    /// The result, once the load finished.
    public var result: ImageResult {
        get async throws(ImageLoadError) {
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImageResult, ImageLoadError>, Never>) in
                let known = state.withLock { state -> Result<ImageResult, ImageLoadError>? in
                    if let result = state.result { return result }
                    state.resultWaiters.append(continuation)
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
            return try result.get()
        }
    }

    /// The image, once the load finished.
    public var image: Image {
        get async throws(ImageLoadError) { try await result.image }
    }

    // MARK: From the pipeline

    /// Records the pipeline's waiter; cancels at once if ``cancel()`` came first.
    func attach(waiter: UInt64) {
        let cancels = state.withLock { state -> Bool in
            state.waiter = waiter
            return state.cancelRequested && state.result == nil
        }
        if cancels { _ = pipeline?.cancel(waiter: waiter) }
    }

    func report(_ event: Event) {
        continuation.yield(event)
    }

    func finish(_ result: Result<ImageResult, ImageLoadError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result<ImageResult, ImageLoadError>, Never>]? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.resultWaiters = [] }
            return state.resultWaiters
        }
        guard let waiters else { return }
        continuation.yield(.finished(result))
        continuation.finish()
        for waiter in waiters { waiter.resume(returning: result) }
    }
}
