@testable import Glimpse
import Testing

@Suite("DownloadQueue state machine")
struct DownloadQueueTests {
    @Test func startsUpToTheLimitThenOnePerFinishedTransfer() {
        var queue = DownloadQueue(maximumConcurrent: 2, order: .fifo)
        #expect(queue.enqueue(1, priority: .normal) == [1])
        #expect(queue.enqueue(2, priority: .normal) == [2])
        #expect(queue.enqueue(3, priority: .normal) == [])
        #expect(queue.enqueue(4, priority: .normal) == [])
        #expect(queue.finish(1) == [3])
        #expect(queue.finish(1) == [], "finishing twice frees nothing")
        #expect(queue.finish(2) == [4])
        #expect(queue.running == [3, 4])
    }

    @Test(arguments: [ImageDownloader.Configuration.ExecutionOrder.fifo, .lifo])
    func equalPrioritiesFollowTheOrder(_ order: ImageDownloader.Configuration.ExecutionOrder) {
        var queue = DownloadQueue(maximumConcurrent: 1, order: order)
        queue.suspend()
        for id in 1...4 { #expect(queue.enqueue(id, priority: .normal) == []) }
        var started = queue.resume()
        while let last = started.last, started.count < 4 { started += queue.finish(last) }
        #expect(started == (order == .fifo ? [1, 2, 3, 4] : [4, 3, 2, 1]))
    }

    @Test func higherPriorityFirstAndChangeableWhileQueued() {
        var queue = DownloadQueue(maximumConcurrent: 1, order: .fifo)
        #expect(queue.enqueue(0, priority: .normal) == [0])
        _ = queue.enqueue(1, priority: .low)
        _ = queue.enqueue(2, priority: .high)
        _ = queue.enqueue(3, priority: .veryLow)
        let raised = queue.setPriority(3, .veryHigh)
        let raisedRunning = queue.setPriority(0, .veryHigh)
        #expect(raised)
        #expect(!raisedRunning, "a running transfer is not pending")
        #expect(queue.finish(0) == [3])
        #expect(queue.finish(3) == [2])
        #expect(queue.finish(2) == [1])
    }

    @Test func suspendedQueueStartsNothingUntilResumed() {
        var queue = DownloadQueue(maximumConcurrent: 3, order: .fifo)
        queue.suspend()
        #expect(queue.enqueue(1, priority: .normal) == [])
        #expect(queue.enqueue(2, priority: .normal) == [])
        let removed = queue.removePending(1)
        let removedTwice = queue.removePending(1)
        #expect(removed && !removedTwice)
        #expect(queue.resume() == [2])
    }

    @Test func raisingTheLimitStartsMore() {
        var queue = DownloadQueue(maximumConcurrent: 1, order: .fifo)
        _ = queue.enqueue(1, priority: .normal)
        _ = queue.enqueue(2, priority: .normal)
        _ = queue.enqueue(3, priority: .normal)
        queue.maximumConcurrent = 3
        #expect(queue.startReady() == [2, 3])
    }
}
