import Foundation

/// Mirrors `payload` in Sources/glimpse-cache-stress/main.swift: the child's entries are
/// self-describing, so any entry read back can be checked byte for byte.
enum StressPayload {
    static func make(key: String, generation: Int, size: Int) -> Data {
        var bytes = Array("key=\(key);gen=\(generation);".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
        while bytes.count < size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return Data(bytes)
    }

    /// Whether `data` is exactly a payload for `key` (any generation).
    static func isValid(_ data: Data, key: String) -> Bool {
        guard let (stored, generation) = parsePrefix(data), stored == key else { return false }
        return data == make(key: key, generation: generation, size: data.count)
    }

    /// The key and generation of "key=<key>;gen=<gen>;", read as bytes: the random bytes that
    /// follow may start with a combining mark, which a `String` would merge with the `;` into
    /// one grapheme cluster and so hide the separator.
    static func parsePrefix(_ data: Data) -> (key: String, generation: Int)? {
        let bytes = [UInt8](data.prefix(64))
        let separator = UInt8(ascii: ";")
        guard let first = bytes.firstIndex(of: separator),
              let second = bytes[(first + 1)...].firstIndex(of: separator),
              bytes[..<first].starts(with: "key=".utf8), bytes[(first + 1)..<second].starts(with: "gen=".utf8),
              let generation = Int(String(decoding: bytes[(first + 5)..<second], as: UTF8.self))
        else { return nil }
        return (String(decoding: bytes[4..<first], as: UTF8.self), generation)
    }
}
