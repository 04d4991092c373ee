import Foundation
import Glimpse

extension AsyncHTTPClientImageLoader {
    enum Phase: Sendable {
        /// Waiting for a slot.
        case queued
        /// Holding a slot; the attempt's task runs.
        case running
        /// Between attempts: no slot; a timer queues it again.
        case waiting
    }

    /// One HTTP transfer, shared by every caller whose request has its key.
    struct Transfer: Sendable {
        let key: ImageDownloadRequest.TransferKey
        /// The first caller's request, from which every attempt is built.
        let request: ImageDownloadRequest
        var callers: [UInt64: Caller] = [:]
        var phase = Phase.queued
        /// Attempts, retries and the body received so far: the URLSession downloader's core.
        var machine: TransferStateMachine
        /// The running attempt (or retry wait), cancelled when the last caller leaves.
        var task: Task<Void, Never>?
        /// When the running attempt began, for the minimum rate.
        var attemptStarted = ContinuousClock.now
        /// When the running attempt last heard from the origin (a head, a redirect, a
        /// piece of the body), for the idle timeout.
        var lastActivity = ContinuousClock.now

        var priority: ImageDownloadPriority { callers.values.map(\.priority).max() ?? .veryLow }
        /// Callers in the order they joined.
        var orderedCallers: [Caller] { callers.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Everything mutable, behind the loader's one lock. Methods decide; the loader
    /// performs what they return (start tasks, call back) after releasing the lock.
    struct State: Sendable {
        var queue: DownloadQueue
        var transfers: [Int: Transfer] = [:]
        /// Transfers a new request may join: until their body is complete.
        var joinable: [ImageDownloadRequest.TransferKey: Int] = [:]
        var transferOfCaller: [UInt64: Int] = [:]
        var nextTransfer = 0
        var nextCaller: UInt64 = 0
        /// First parts of failed transfers, for later requests.
        var resumables: ResumableDataStore
        var isShutDown = false
        /// Every attempt and retry wait still running, for ``shutdown()`` to wait for.
        var activeTasks: [Int: Task<Void, Never>] = [:]
        var nextTask = 0

        init(queue: DownloadQueue, resumables: ResumableDataStore) {
            self.queue = queue
            self.resumables = resumables
        }

        /// Adds a caller to the joinable transfer for its key, or to a new one.
        mutating func attach(_ request: ImageDownloadRequest, _ caller: Caller, retryPolicy: RetryPolicy, resumes: Bool)
            -> (id: UInt64, toStart: [Int]) {
            let id = nextCaller
            nextCaller += 1
            let key = request.transferKey
            if let transfer = joinable[key], transfers[transfer] != nil {
                transfers[transfer]?.callers[id] = caller
                transferOfCaller[id] = transfer
                if let priority = transfers[transfer]?.priority { queue.setPriority(transfer, priority) }
                return (id, [])
            }
            let number = nextTransfer
            nextTransfer += 1
            let resumable = resumables.take(key, now: .now)
            let machine = TransferStateMachine(policy: request.retryPolicy ?? retryPolicy, resumingFrom: resumable,
                                               resumes: resumes,
                                               callerAskedForRange: request.headers.keys.contains { $0.lowercased() == "range" })
            var transfer = Transfer(key: key, request: request, machine: machine)
            transfer.callers[id] = caller
            transfers[number] = transfer
            joinable[key] = number
            transferOfCaller[id] = number
            return (id, queue.enqueue(number, priority: request.priority))
        }

        /// Removes one caller; when it was the transfer's last, removes the transfer too
        /// (keeping what it received for a later request) and returns its task to cancel.
        mutating func detach(_ caller: UInt64) -> (Caller, Task<Void, Never>?)? {
            guard let id = transferOfCaller.removeValue(forKey: caller),
                  let entry = transfers[id]?.callers.removeValue(forKey: caller) else { return nil }
            guard transfers[id]?.callers.isEmpty == true, let transfer = remove(id) else { return (entry, nil) }
            switch transfer.phase {
            case .queued: _ = queue.removePending(id)
            case .running, .waiting: keepResumable(of: transfer)
            }
            return (entry, transfer.task)
        }

        /// Removes a transfer with its callers, who are thereby claimed for completion.
        mutating func remove(_ id: Int) -> Transfer? {
            guard let transfer = transfers.removeValue(forKey: id) else { return nil }
            if joinable[transfer.key] == id { joinable[transfer.key] = nil }
            for caller in transfer.callers.keys { transferOfCaller[caller] = nil }
            return transfer
        }

        /// Removes every transfer; returns their callers.
        mutating func removeAll() -> [Caller] {
            let callers = transfers.keys.sorted().compactMap { remove($0) }.flatMap(\.orderedCallers)
            return callers
        }

        mutating func update(_ id: Int, _ body: (inout Transfer) -> Void) {
            guard let index = transfers.index(forKey: id) else { return }
            body(&transfers.values[index])
        }

        /// Keeps what a transfer that ends without its body can resume from.
        mutating func keepResumable(of transfer: Transfer) {
            guard resumables.limits.isEnabled else { return }
            var machine = transfer.machine
            // Cancelled is never retried, so this only records what arrived.
            _ = machine.failed(.cancelled, now: Date(), unitRandom: 0)
            if let resumable = machine.resumable { resumables.store(resumable, for: transfer.key, now: .now) }
        }
    }
}
