// The smallest program a codec-only user would ship: it links GlimpseCodec (and through it zlib)
// and nothing else, no Foundation. `.ci/smoke-container.sh` builds it with `--static-swift-stdlib`,
// checks that it needs no shared library beyond libc, libm, libz, libstdc++, libgcc_s and the
// loader, holds its stripped size to the budget, and runs it in an empty root.
//
//   glimpse-codec-smoke FILE [OUT.png]
//
// Prints `FILE: FORMAT WIDTHxHEIGHT frames=N fnv1a=HEX` (FNV-1a of the first frame's RGBA bytes);
// with OUT.png, also writes the first frame as PNG (so deflate is exercised as well as inflate).
// Exit status 1 with one `error:` line on standard error when the file cannot be read, decoded
// or written.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GlimpseCodec

/// One line on standard error, then exit status 1.
func fail(_ message: String) -> Never {
    // write(2), not fputs: the C `stderr` global is a mutable variable that Swift 6 refuses to read.
    let line = Array("error: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}

/// The whole file, read with POSIX calls (Foundation would defeat the point of this program).
func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[..<count])
    }
}

func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written <= 0 { return false }
        offset += written
    }
    return true
}

func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 else {
    fail("usage: glimpse-codec-smoke FILE [OUT.png]")
}
let path = arguments[1]
guard let bytes = readFile(path) else { fail("\(path): cannot read") }
var decoder = AutoDecoder()
let image: Image
do throws(ImageDecodingError) {
    _ = try decoder.append(bytes)
    image = try decoder.finish()
} catch {
    fail("\(path): \(error)")
}
let hash = String(fnv1a(image.pixels.bytes), radix: 16)
print("\(path): \(image.format) \(image.width)x\(image.height) frames=\(image.frames.count) fnv1a=\(hash)")
if arguments.count == 3 {
    let output = arguments[2]
    let encoded: [UInt8]
    do {
        encoded = try PNG.Encoder().encode(image.pixels, metadata: image.metadata)
    } catch {
        fail("\(output): cannot encode PNG: \(error)")
    }
    guard writeFile(encoded, to: output) else { fail("\(output): cannot write") }
}
