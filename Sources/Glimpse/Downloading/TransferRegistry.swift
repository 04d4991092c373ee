import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Coalescing: which callers share which HTTP transfer. A value type with no
/// I/O, owned by ``ImageDownloader`` behind its lock.
///
/// A transfer is joinable (found by its ``ImageDownloadRequest/TransferKey``)
/// from creation until its body is complete; a request arriving later starts
/// a new transfer. A caller leaves by cancelling (only its own callbacks are
/// dropped) or when the transfer ends; the transfer itself is cancelled when
/// its last caller leaves.
struct TransferRegistry: Sendable {
    typealias TransferID = Int
    typealias CallerID = UInt64

    struct Caller: Sendable {
        var priority: ImageDownloadPriority
        var callbacks: DownloadCallbacks
    }

    enum Phase: Sendable {
        /// Waiting for a slot.
        case queued
        /// Holding a slot; the request modifier is running.
        case preparing
        /// The URLSession task runs.
        case running(URLSessionDataTask)
        /// Between attempts: no slot, no task; a timer queues it again.
        case waiting
        /// The body is complete; the data transform runs.
        case processing
    }

    struct Transfer: Sendable {
        let key: ImageDownloadRequest.TransferKey
        /// The first caller's request, from which the HTTP request is built.
        let request: ImageDownloadRequest
        var callers: [CallerID: Caller] = [:]
        var phase: Phase = .queued
        /// Attempts, retries and the body received so far.
        var machine: TransferStateMachine
        /// Set when the running attempt is being stopped to be tried again:
        /// the wait, the next attempt's number and why this one failed.
        var pendingRetry: (delay: Duration, attempt: Int, error: ImageDownloadError)?
        var response: ImageDownloadResponse?
        /// Set when a body piece was sent from URLSession's thread to the
        /// downloader's event queue: every later piece follows it there, in order.
        var piecesOnEventQueue = false
        /// When the transfer last made progress (launch, response, data), for
        /// the downloader's idle timeout.
        var lastActivity: ContinuousClock.Instant = .now

        var priority: ImageDownloadPriority { callers.values.map(\.priority).max() ?? .veryLow }

        /// Callers in the order they joined.
        var orderedCallers: [(id: CallerID, caller: Caller)] {
            callers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    private(set) var transfers: [TransferID: Transfer] = [:]
    private var joinable: [ImageDownloadRequest.TransferKey: TransferID] = [:]
    private var transferOfCaller: [CallerID: TransferID] = [:]
    private var nextTransfer: TransferID = 0
    private var nextCaller: CallerID = 0

    var callerCount: Int { transferOfCaller.count }

    /// Whether a request with `key` would join a running transfer.
    func isJoinable(_ key: ImageDownloadRequest.TransferKey) -> Bool {
        joinable[key].map(contains) ?? false
    }

    func isActive(_ caller: CallerID) -> Bool { transferOfCaller[caller] != nil }

    /// Adds a caller, to the joinable transfer for its key or to a new one.
    ///
    /// A new transfer retries under `retryPolicy` unless the request names its
    /// own, and resumes from what `resumable` returns for its key.
    mutating func attach(_ request: ImageDownloadRequest, callbacks: DownloadCallbacks, retryPolicy: RetryPolicy = .never,
                         resumes: Bool = true, resumable: ResumableData? = nil)
        -> (caller: CallerID, transfer: TransferID, isNew: Bool) {
        let caller = nextCaller
        nextCaller += 1
        let entry = Caller(priority: request.priority, callbacks: callbacks)
        let key = request.transferKey
        if let id = joinable[key], contains(id) {
            transfers[id]?.callers[caller] = entry
            transferOfCaller[caller] = id
            return (caller, id, false)
        }
        let id = nextTransfer
        nextTransfer += 1
        var transfer = Transfer(key: key, request: request,
                                machine: TransferStateMachine(policy: request.retryPolicy ?? retryPolicy,
                                                              resumingFrom: resumable, resumes: resumes,
                                                              callerAskedForRange: request.headers.keys.contains {
                                                                  $0.lowercased() == "range"
                                                              }))
        transfer.callers[caller] = entry
        transfers[id] = transfer
        joinable[key] = id
        transferOfCaller[caller] = id
        return (caller, id, true)
    }

    struct Detached: Sendable {
        var transfer: TransferID
        var caller: Caller
        /// The transfer, when this was its last caller (it is removed).
        var abandoned: Transfer?
    }

    /// Removes one caller; `nil` when it already completed or left.
    mutating func detach(_ caller: CallerID) -> Detached? {
        guard let id = transferOfCaller.removeValue(forKey: caller),
              let entry = transfers[id]?.callers.removeValue(forKey: caller) else { return nil }
        var abandoned: Transfer?
        if read(id, { $0.callers.isEmpty }) == true {
            abandoned = remove(id)
        }
        return Detached(transfer: id, caller: entry, abandoned: abandoned)
    }

    /// Removes a transfer with all its callers, who are thereby claimed for
    /// completion by the one who removed it.
    mutating func remove(_ id: TransferID) -> Transfer? {
        guard let transfer = transfers.removeValue(forKey: id) else { return nil }
        if joinable[transfer.key] == id { joinable[transfer.key] = nil }
        for caller in transfer.callers.keys { transferOfCaller[caller] = nil }
        return transfer
    }

    /// Stops new callers from joining (the body is complete).
    mutating func closeToJoiners(_ id: TransferID) {
        guard let key = read(id, { $0.key }), joinable[key] == id else { return }
        joinable[key] = nil
    }

    mutating func update(_ id: TransferID, _ body: (inout Transfer) -> Void) {
        // Through the index, in place: copying the transfer out would copy its body.
        guard let index = transfers.index(forKey: id) else { return }
        body(&transfers.values[index])
    }

    /// Reads a transfer in place. `transfers[id]` returns a copy, which retains
    /// and releases every field of the transfer: measurable on the per-chunk path.
    func read<Result>(_ id: TransferID, _ body: (borrowing Transfer) -> Result) -> Result? {
        guard let index = transfers.index(forKey: id) else { return nil }
        return body(transfers.values[index])
    }

    func contains(_ id: TransferID) -> Bool { transfers.index(forKey: id) != nil }

    /// Moves a transfer whose retry wait is over back to the queue; returns its
    /// priority, or `nil` when it is gone or no longer waiting (its callers left).
    mutating func endWait(_ id: TransferID) -> ImageDownloadPriority? {
        guard let index = transfers.index(forKey: id), case .waiting = transfers.values[index].phase else { return nil }
        transfers.values[index].phase = .queued
        return transfers.values[index].priority
    }

    /// Moves a queued transfer to ``Phase/preparing`` and starts its next
    /// attempt; returns its request and the header fields the attempt adds
    /// (a range when resuming), or `nil` when it is gone or not queued.
    mutating func beginPreparing(_ id: TransferID) -> (request: ImageDownloadRequest, headers: [String: String])? {
        guard let index = transfers.index(forKey: id), case .queued = transfers.values[index].phase,
              let headers = transfers.values[index].machine.send() else { return nil }
        transfers.values[index].phase = .preparing
        return (transfers.values[index].request, headers)
    }

    /// Moves a preparing transfer to ``Phase/running(_:)``; false when it is
    /// gone or was not preparing (every caller left meanwhile).
    mutating func beginRunning(_ id: TransferID, task: URLSessionDataTask) -> Bool {
        guard let index = transfers.index(forKey: id), case .preparing = transfers.values[index].phase else { return false }
        transfers.values[index].phase = .running(task)
        transfers.values[index].lastActivity = .now
        return true
    }

    mutating func setPriority(_ priority: ImageDownloadPriority, of caller: CallerID) -> (TransferID, ImageDownloadPriority)? {
        guard let id = transferOfCaller[caller], transfers[id]?.callers[caller] != nil else { return nil }
        transfers[id]?.callers[caller]?.priority = priority
        return transfers[id].map { (id, $0.priority) }
    }

    var allCallers: [CallerID] { Array(transferOfCaller.keys).sorted() }
}
