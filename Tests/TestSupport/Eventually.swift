/// Polls `condition` every 5 ms until it holds, giving up after `timeout`'s worth
/// of polls. Counted in polls, not read from the clock: when parallel tests hold
/// every thread of the cooperative pool (the codec suites decode for seconds at a
/// time), this task and the work it waits for are both held back, and a wall-clock
/// deadline ran out before either had run. Not a timing assertion: a bound on how long
/// a test waits for something that must happen.
public func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let polls = Int(timeout / .milliseconds(5))
    for _ in 0..<polls {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
