import Foundation
import Testing

/// The crash test's payload check must accept every payload the stress child writes.
@Suite("Stress payload")
struct StressPayloadTests {
    /// Generation 203 of "k3" (48 557 bytes) continues after "gen=203;" with U+0738, a
    /// combining mark: read as a `String`, it merged with the `;` and the valid entry was
    /// reported torn.
    @Test func payloadWithACombiningMarkAfterThePrefixIsValid() {
        let data = StressPayload.make(key: "k3", generation: 203, size: 48_557)
        #expect(Array(data[15...16]) == [0xDC, 0xB8])
        #expect(StressPayload.isValid(data, key: "k3"))
    }

    @Test func everyGenerationOfTheCrashLoopIsValid() {
        for generation in 0..<2_000 {
            let key = "k\(generation % 40)"
            let size = 1000 + (generation * 7919) % 60_000
            #expect(StressPayload.isValid(StressPayload.make(key: key, generation: generation, size: size), key: key))
        }
    }

    @Test func alteredPayloadsAreNotValid() {
        var data = StressPayload.make(key: "k1", generation: 5, size: 3000)
        #expect(!StressPayload.isValid(data, key: "k2"))
        data[2000] ^= 1
        #expect(!StressPayload.isValid(data, key: "k1"))
    }
}
