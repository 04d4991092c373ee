import Foundation
import Glimpse
import Synchronization
import Testing
import GlimpseCache
import TestSupport

/// What one caller received, recorded from its callbacks.
struct CallerLog: Sendable {
    var progress: [(received: Int64, expected: Int64?)] = []
    var completions: [Result<ImageDownloadResult, ImageDownloadError>] = []
    /// Callbacks that arrived after the caller's completion (must stay 0).
    var lateCallbacks = 0
    /// When the completion ran (on the downloader's callback queue, so not
    /// delayed by a busy cooperative pool).
    var completedAt: ContinuousClock.Instant?

    var error: ImageDownloadError? {
        guard case .failure(let error)? = completions.first else { return nil }
        return error
    }

    var result: ImageDownloadResult? {
        guard case .success(let result)? = completions.first else { return nil }
        return result
    }
}

/// Records every caller's callbacks so that tests can check "exactly once"
/// and "nothing after completion".
final class DownloadRecorder: Sendable {
    private let logs = Lock<[Int: CallerLog]>([:])

    /// Starts a download for caller `index` with recording callbacks.
    @discardableResult
    func start(_ downloader: ImageDownloader, _ request: ImageDownloadRequest, as index: Int) -> ImageDownloadToken {
        logs.withLock { $0[index] = CallerLog() }
        return downloader.download(request, progress: { received, expected in
            self.logs.withLock { logs in
                if logs[index]?.completions.isEmpty == false { logs[index]?.lateCallbacks += 1 }
                logs[index]?.progress.append((received, expected))
            }
        }, completion: { result in
            self.logs.withLock { logs in
                logs[index]?.completions.append(result)
                logs[index]?.completedAt = ContinuousClock.now
            }
        })
    }

    func log(_ index: Int) -> CallerLog { logs.withLock { $0[index] ?? CallerLog() } }

    var all: [Int: CallerLog] { logs.withLock { $0 } }

    /// Waits until every recorded caller has completed at least once. The
    /// timeout only catches hangs: the condition is checked once more after it,
    /// because a busy test process may resume this task late.
    func waitForCompletions(timeout: Duration = .seconds(30)) async -> Bool {
        await eventually(timeout: timeout) { logs.withLock { $0.values.allSatisfy { !$0.completions.isEmpty } } }
    }

    /// Every caller completed exactly once, with nothing after.
    func expectEachCompletedOnce(sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, log) in all.sorted(by: { $0.key < $1.key }) {
            #expect(log.completions.count == 1, "caller \(index) completed \(log.completions.count) times", sourceLocation: sourceLocation)
            #expect(log.lateCallbacks == 0, "caller \(index) got callbacks after completing", sourceLocation: sourceLocation)
        }
    }
}
