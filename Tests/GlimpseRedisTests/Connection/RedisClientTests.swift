import GlimpseRedis
import Testing

@Suite("Redis client against redis-server", .enabled(if: RedisServer.isAvailable))
struct RedisClientTests {
    @Test("Round trips of binary values, RESP3 negotiated")
    func roundTrip() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let connection = try await RedisConnection.connect(server.configuration)
        #expect(connection.speaksRESP3)
        let value: [UInt8] = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) } + [13, 10]
        let replies = try await connection.send([RESP.Command("SET", "k", value), RESP.Command("GET", "k"),
                                                 RESP.Command("GET", "absent"), RESP.Command("HGETALL", "absent")])
        #expect(replies == [.simpleString("OK"), .bulkString(value), .null, .map([])])
        await connection.close()
    }

    @Test("Pipelined commands get their own replies, in order, across the pool")
    func pipelining() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        let client = RedisClient(configuration: server.configuration)
        let replies = try await client.send((0..<200).map { _ in RESP.Command("INCR", "n") })
        #expect(replies == (1...200).map { .integer(Int64($0)) })
        // Concurrent senders on a pool of 4: each reply belongs to its own command.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                group.addTask {
                    let replies = try await client.send([RESP.Command("SET", "k\(index)", "v\(index)"),
                                                         RESP.Command("GET", "k\(index)")])
                    #expect(replies == [.simpleString("OK"), .bulkString(Array("v\(index)".utf8))])
                }
            }
            try await group.waitForAll()
        }
        await client.shutdown()
    }

    @Test("AUTH and SELECT over RESP2 and RESP3; a wrong password is a typed error")
    func authentication() async throws {
        let server = try await RedisServer(arguments: ["--requirepass", "s3cret"])
        defer { server.stop() }
        for resp3 in [true, false] {
            var good = server.configuration
            good.password = "s3cret"
            good.database = 2
            good.prefersRESP3 = resp3
            let connection = try await RedisConnection.connect(good)
            #expect(connection.speaksRESP3 == resp3)
            let replies = try await connection.send([RESP.Command("SET", "x", "1"), RESP.Command("CLIENT", "INFO")])
            #expect(replies[0] == .simpleString("OK"))
            #expect(String(decoding: replies[1].bytes ?? [], as: UTF8.self).contains(" db=2 "))
            await connection.close()

            var bad = good
            bad.password = "wrong"
            await #expect {
                try await RedisConnection.connect(bad)
            } throws: { error in
                guard case .authentication(let message) = error as? RedisError else { return false }
                return message.hasPrefix("WRONGPASS")
            }
        }
        var none = server.configuration
        none.prefersRESP3 = false
        let unauthenticated = try await RedisConnection.connect(none)
        guard case .error(let message) = try await unauthenticated.send([RESP.Command("GET", "x")])[0] else {
            Issue.record("expected NOAUTH")
            return
        }
        #expect(message.hasPrefix("NOAUTH"))
        await unauthenticated.close()
    }

    @Test("A slow Redis: the command times out and the connection is dropped")
    func commandTimeout() async throws {
        let server = try await RedisServer()
        defer { server.stop() }
        var fast = server.configuration
        fast.commandTimeout = .milliseconds(100)  // the default
        let connection = try await RedisConnection.connect(fast)
        // The server cannot answer the PING before the sleep ends, a second after the timeout:
        // a timeout thrown is the proof that nothing waited for it.
        await #expect(throws: RedisError.commandTimeout) {
            try await connection.send([RESP.Command("DEBUG", "SLEEP", "1"), RESP.Command("PING")])
        }
        #expect(!connection.isActive)
    }

    @Test("Nothing listening: connect fails fast and the breaker opens after three failures")
    func refused() async throws {
        let server = try await RedisServer()
        let configuration = server.configuration
        server.stop()
        let client = RedisClient(configuration: configuration)
        for _ in 0..<3 {
            await #expect(throws: RedisError.self) { try await client.send(RESP.Command("PING")) }
        }
        #expect(client.breakerState == .open)
        await #expect(throws: RedisError.circuitOpen) { try await client.send(RESP.Command("PING")) }
        await client.shutdown()
    }
}
