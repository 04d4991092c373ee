#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Saves the input being run when the process is about to die of a signal
/// (a trap, a segfault, an abort, or the per-input alarm for hangs), the way
/// libFuzzer does, so that every finding can be kept as a regression.
///
/// The handler only calls async-signal-safe functions (`open`, `write`,
/// `close`, `_exit`) on memory prepared before any input runs.
enum CrashReporter {
    nonisolated(unsafe) private static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    nonisolated(unsafe) private static var capacity = 1
    nonisolated(unsafe) private static var count = 0
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var timeout: UInt32 = 10
    private static let alternateStackSize = 1 << 16

    /// Installs the handlers; the input of a crash goes to `crashPath`.
    static func install(crashPath: String, timeoutSeconds: UInt32) {
        path = strdup(crashPath)
        timeout = timeoutSeconds
        // Stack overflows must still be reported: run the handler on its own stack.
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
        stack.ss_size = alternateStackSize
        sigaltstack(&stack, nil)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGALRM] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handleFatalSignal
            #elseif canImport(Musl)
            action.__sa_handler.sa_handler = handleFatalSignal
            #elseif canImport(Darwin)
            action.__sigaction_u.__sa_handler = handleFatalSignal
            #endif
            action.sa_flags = Int32(SA_ONSTACK)
            sigaction(signal, &action, nil)
        }
    }

    /// Records `bytes` as the input now running and arms the hang alarm.
    static func willRun(_ bytes: [UInt8]) {
        if bytes.count > capacity {
            buffer.deallocate()
            capacity = bytes.count
            buffer = .allocate(capacity: capacity)
        }
        bytes.withUnsafeBufferPointer { source in
            // `capacity >= bytes.count` was ensured just above.
            if let base = source.baseAddress { buffer.update(from: base, count: bytes.count) }
        }
        count = bytes.count
        alarm(timeout)
    }

    /// Disarms the hang alarm.
    static func didRun() {
        alarm(0)
    }

    /// Writes the current input to the crash file (for violations, which are not signals).
    static func saveCurrentInput() {
        saveInput()
    }

    fileprivate static func saveInput() {
        guard let path else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, buffer, count)
        close(descriptor)
    }
}

private func handleFatalSignal(_ signal: Int32) {
    CrashReporter.saveInput()
    let message: StaticString = signal == SIGALRM
        ? "\n==fuzz== HANG: input ran past the timeout; saved to the crash file\n"
        : "\n==fuzz== CRASH: fatal signal; input saved to the crash file\n"
    _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
    _exit(signal == SIGALRM ? 71 : 70)
}
