import GlimpseCache

/// Hands out the indices 0..<limit once each to concurrent benchmark workers.
final class WorkCursor: Sendable {
    private let position = Lock(0)
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func next() -> Int? {
        position.withLock { value in
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}
