import Glimpse

extension AsyncHTTPClientImageLoader {
    /// The attempt's watchdog, as ``ImageDownloader``'s: an origin that sends nothing for
    /// `idleTimeout` times out (and is retried, as a stall may be the connection's fault);
    /// one that trickles below the minimum rate after its grace fails with `tooSlow`
    /// (not retried: another attempt would hold the slot as long again). AsyncHTTPClient's
    /// own read timeout is per client, not per request, and sees a trickle as alive.
    /// Returns `nil` once cancelled (the attempt ended another way).
    func watch(_ id: Int, idleTimeout: Duration) async -> Ending? {
        let grace = configuration.minimumTransferRate?.grace ?? idleTimeout
        // Coarse enough to cost nothing, fine enough to fail within a quarter of a limit.
        let tick = max(.milliseconds(10), min(.seconds(1), min(idleTimeout, grace) / 4))
        var lateBefore = false
        while !Task.isCancelled {
            let asleep = ContinuousClock.now
            try? await Task.sleep(for: tick)
            guard !Task.isCancelled else { return nil }
            let now = ContinuousClock.now
            // Woken late, the cooperative pool was busy, and the task that counts the body
            // may not have run either: what it has not counted yet would look like a stall.
            // Judge at the next tick instead (once: a pool that stays busy still gets judged).
            let late = now - asleep > tick * 2 + .milliseconds(50)
            if late && !lateBefore {
                lateBefore = true
                continue
            }
            lateBefore = late
            enum Verdict { case healthy, gone, ends(Ending) }
            let verdict: Verdict = state.withLock { state in
                guard let transfer = state.transfers[id], case .running = transfer.phase else { return .gone }
                if now - transfer.lastActivity >= idleTimeout { return .ends(.retry(.timedOut)) }
                if configuration.isBelowMinimumRate(received: transfer.machine.receivedThisAttempt,
                                                    elapsed: now - transfer.attemptStarted) {
                    return .ends(.failed(.tooSlow))
                }
                return .healthy
            }
            switch verdict {
            case .healthy: continue
            case .gone: return nil
            case .ends(let ending): return ending
            }
        }
        return nil
    }
}
