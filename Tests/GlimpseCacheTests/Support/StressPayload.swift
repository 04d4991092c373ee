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
        let prefix = String(decoding: data.prefix(64), as: UTF8.self)
        let fields = prefix.split(separator: ";")
        guard fields.count >= 2, fields[0] == "key=\(key)", fields[1].hasPrefix("gen="),
              let generation = Int(fields[1].dropFirst(4)) else { return false }
        return data == make(key: key, generation: generation, size: data.count)
    }
}
