// A child process for GlimpseCache's tests: writes entries to a DiskCache directory so the
// tests can kill it mid-write (SIGKILL) or run two writers on one directory.
//
//   glimpse-cache-stress loop DIR KEYS       write forever, keys "k0"..."k<KEYS-1>"
//   glimpse-cache-stress write DIR KEYS N ID write N entries, then exit 0
//   ... batchloop / batchwrite               the same through `setData(batch:)`, 10 at a time
//
// Each payload is self-describing (see `payload`), so a reader can verify any entry exactly.
import Foundation
import GlimpseCache

/// "key=<key>;gen=<gen>;" followed by bytes from an LCG seeded by that prefix, `size` long.
/// Tests rebuild the payload from its own prefix and compare byte for byte.
func payload(key: String, generation: Int, size: Int) -> Data {
    var bytes = Array("key=\(key);gen=\(generation);".utf8)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
    while bytes.count < size {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(UInt8(truncatingIfNeeded: state >> 33))
    }
    return Data(bytes)
}

/// The key and generation of a payload's "key=<key>;gen=<gen>;" prefix, parsed as bytes (the
/// random bytes after it may begin with a combining mark that a `String` would merge with `;`).
func parsePrefix(_ data: Data) -> (key: String, generation: Int)? {
    let bytes = [UInt8](data.prefix(64))
    let separator = UInt8(ascii: ";")
    guard let first = bytes.firstIndex(of: separator),
          let second = bytes[(first + 1)...].firstIndex(of: separator),
          bytes[..<first].starts(with: "key=".utf8), bytes[(first + 1)..<second].starts(with: "gen=".utf8),
          let generation = Int(String(decoding: bytes[(first + 5)..<second], as: UTF8.self))
    else { return nil }
    return (String(decoding: bytes[4..<first], as: UTF8.self), generation)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let keys = Int(arguments[3]), keys > 0 else {
    fail("usage: glimpse-cache-stress loop|batchloop DIR KEYS | write|batchwrite DIR KEYS N ID")
}
/// `setData(batch:)` takes entries 10 at a time; `flush` stores what is left.
struct Batcher {
    var entries: [DiskCache.BatchEntry] = []

    mutating func add(_ data: Data, metadata: DiskCache.Metadata = DiskCache.Metadata(), forKey key: String) {
        entries.append(DiskCache.BatchEntry(key: key, data: [UInt8](data), metadata: metadata))
        if entries.count == 10 { flush() }
    }

    mutating func flush() {
        let count = Set(entries.map(\.key)).count
        if cache.setData(batch: entries) != count { fail("batch not stored") }
        entries.removeAll()
    }
}
let batched = arguments[1].hasPrefix("batch")
var batcher = Batcher()
let configuration = DiskCache.Configuration(directory: URL(fileURLWithPath: arguments[2]), maxAge: .zero)
let cache: DiskCache
do {
    cache = try DiskCache(configuration: configuration)
} catch {
    fail("\(error)")
}

switch arguments[1] {
case "loop", "batchloop":
    var generation = 0
    while true {
        let key = "k\(generation % keys)"
        // Sizes vary so that a torn write would show up as a length mismatch too (batches
        // mostly hold small entries: the large ones get files of their own).
        let size = batched ? 200 + (generation * 7919) % 6000 : 1000 + (generation * 7919) % 60_000
        if batched {
            batcher.add(payload(key: key, generation: generation, size: size), forKey: key)
        } else {
            do {
                try cache.setData(payload(key: key, generation: generation, size: size), forKey: key)
            } catch {
                fail("\(error)")
            }
        }
        if generation == keys + 10 {
            FileHandle.standardOutput.write(Data("ready\n".utf8))
        }
        generation += 1
    }
case "write", "batchwrite":
    guard arguments.count >= 6, let count = Int(arguments[4]) else { fail("write needs N and ID") }
    let writer = arguments[5]
    for index in 0..<count {
        let key = "k\(index % keys)"
        let data = payload(key: key, generation: index, size: 500 + (index * 131) % 9000)
        if batched {
            batcher.add(data, metadata: DiskCache.Metadata(etag: writer), forKey: key)
        } else {
            do {
                try cache.setData(data, metadata: DiskCache.Metadata(etag: writer), forKey: key)
            } catch {
                fail("\(error)")
            }
        }
        // Read back another key now and then: a torn entry written by the other process would
        // show up here as a mismatch.
        let other = "k\((index * 7) % keys)"
        if index % 5 == 0, let data = cache.data(forKey: other) {
            guard let (key, generation) = parsePrefix(data), key == other,
                  data == payload(key: key, generation: generation, size: data.count) else {
                fail("torn entry read back for \(other)")
            }
        }
    }
    if batched { batcher.flush() }
    cache.flush()
default:
    fail("unknown mode \(arguments[1])")
}
