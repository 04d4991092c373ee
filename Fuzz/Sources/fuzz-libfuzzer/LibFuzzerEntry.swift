import FuzzTargets
import Glibc
import JPEGDifferential

/// The target chosen by `GLIMPSE_FUZZ_TARGET` (run.sh sets it): one of ``FuzzTarget``,
/// or `jpeg-diff` (`nil` here), which needs libjpeg-turbo and so lives in this package only.
let selectedTarget: FuzzTarget? = {
    let name = getenv("GLIMPSE_FUZZ_TARGET").map { String(cString: $0) }
    if name == "jpeg-diff" { return nil }
    guard let name, let target = FuzzTarget(rawValue: name) else {
        writeError("set GLIMPSE_FUZZ_TARGET to jpeg-diff or one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n")
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: one input per call. A violated invariant aborts,
/// which libFuzzer reports as a crash and saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let violation = selectedTarget.map { FuzzChecks.run($0, bytes) } ?? JPEGDifferential.check(bytes)
    if let violation {
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
