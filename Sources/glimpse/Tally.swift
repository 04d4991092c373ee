import Synchronization

/// A count that concurrent tasks add to (a bench's misses).
final class Tally: Sendable {
    private let value = Atomic<Int>(0)

    func add() { value.add(1, ordering: .relaxed) }

    var count: Int { value.load(ordering: .relaxed) }
}
