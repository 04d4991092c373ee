import DiffTargets
import FuzzTargets
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import JPEGDifferential

/// A target of either kind: a check of our decoders alone, or a comparison with a C library.
enum SelectedTarget {
    case check(FuzzTarget)
    case diff(DiffTarget)
    /// `jpeg-diff`: against libjpeg-turbo (JPEGDifferential).
    case jpegDiff

    func run(_ bytes: [UInt8]) -> String? {
        switch self {
        case .check(let target): FuzzChecks.run(target, bytes)
        case .diff(let target): target.run(bytes)
        case .jpegDiff: JPEGDifferential.check(bytes)
        }
    }
}

/// The target chosen by `GLIMPSE_FUZZ_TARGET` (run.sh sets it).
let selectedTarget: SelectedTarget = {
    let name = getenv("GLIMPSE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    if let target = FuzzTarget(rawValue: name) { return .check(target) }
    if let target = DiffTarget(rawValue: name) { return .diff(target) }
    if name == "jpeg-diff" { return .jpegDiff }
    let names = FuzzTarget.allCases.map(\.rawValue) + DiffTarget.allCases.map(\.rawValue) + ["jpeg-diff"]
    writeError("set GLIMPSE_FUZZ_TARGET to one of: \(names.joined(separator: ", "))\n")
    exit(2)
}()

/// libFuzzer's entry point: one input per call. A violated invariant or a
/// disagreement with the reference aborts, which libFuzzer reports as a crash
/// and saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let violation = selectedTarget.run(bytes) {
        writeError("invariant violated: \(violation)\n")
        abort()
    }
    return 0
}

private func writeError(_ message: String) {
    var message = message
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// libFuzzer's driver (FuzzerInterface.h), for starting it from our own entry point.
@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM links an executable's `main` to `<module>_main`; with
/// `-parse-as-library` there is no Swift `main`, so this hands control to
/// libFuzzer's driver instead.
@_cdecl("fuzz_libfuzzer_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var vector = argv
    return runLibFuzzerDriver(&count, &vector) { data, size in fuzzOneInput(data, size) }
}
