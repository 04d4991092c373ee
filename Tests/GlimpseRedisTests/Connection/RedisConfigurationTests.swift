import GlimpseRedis
import Testing

@Suite("Redis URL and circuit breaker")
struct RedisConfigurationTests {
    @Test("redis:// URLs: credentials, IPv6, port and database")
    func urls() throws {
        let full = try #require(RedisClient.Configuration(url: "redis://cache%40fleet:p%3Ass@10.0.0.5:6380/3"))
        #expect(full.host == "10.0.0.5" && full.port == 6380 && full.database == 3)
        #expect(full.username == "cache@fleet" && full.password == "p:ss")
        let plain = try #require(RedisClient.Configuration(url: "redis://localhost"))
        #expect(plain.host == "localhost" && plain.port == 6379 && plain.database == 0 && plain.password == nil)
        let passwordOnly = try #require(RedisClient.Configuration(url: "redis://:secret@[::1]:7000/"))
        #expect(passwordOnly.host == "::1" && passwordOnly.port == 7000 && passwordOnly.username == nil)
        #expect(passwordOnly.password == "secret")
        #expect(plain.connectTimeout == .milliseconds(50) && plain.commandTimeout == .milliseconds(100))
        for bad in ["http://h:1", "redis://", "redis://h:0", "redis://h:70000", "redis://h:x", "redis://h/x",
                    "redis://h/-1", "redis://h?db=1", "redis://u:%zz@h", "redis://[::1"] {
            #expect(RedisClient.Configuration(url: bad) == nil, "\(bad)")
        }
    }

    @Test("The breaker opens after the threshold, backs off its probes, closes on success")
    func breaker() {
        var breaker = RedisCircuitBreaker(configuration: .init(failureThreshold: 3, initialProbeDelay: .milliseconds(100),
                                                               maximumProbeDelay: .milliseconds(700)))
        var opened: [Bool] = []
        opened.append(breaker.recordFailure())
        opened.append(breaker.recordFailure())
        breaker.recordSuccess()
        for _ in 0..<4 { opened.append(breaker.recordFailure()) }
        // Two, then reset; the third after the reset opens; once open, no second probe.
        #expect(opened == [false, false, false, false, true, false])
        #expect(breaker.isOpen)
        #expect((0..<5).map { breaker.probeDelay(attempt: $0) }
            == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(700), .milliseconds(700)])
        breaker.recordSuccess()
        #expect(breaker.state == .closed(failures: 0))
    }
}
