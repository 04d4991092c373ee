#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The scheduling priority (nice value) of the calling thread: the pipeline's
/// own threads run below the rest of the process, so request handlers on
/// Swift's cooperative pool get a core first when both want one.
enum ThreadPriority {
    /// Lowers the calling thread's priority by `niceness` (its nice value goes up
    /// by that much, to at most 19; setpriority(2)). Failure only leaves the
    /// thread at the priority it had.
    static func lowerCurrentThread(by niceness: Int32) {
        guard niceness > 0 else { return }
        let target = min(19, currentNiceness() + min(niceness, 19))
        #if canImport(Glibc)
        // On Linux the nice value is per thread, and PRIO_PROCESS with 0 means the calling
        // thread (setpriority(2), NOTES).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, target)
        #elseif canImport(Musl)
        _ = setpriority(PRIO_PROCESS, 0, target)
        #elseif canImport(Darwin)
        // Darwin's setpriority applies to the whole process: a lower QoS class is the
        // per-thread equivalent.
        _ = target
        _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }

    /// The calling thread's nice value (0 where the system does not say), for tests.
    static func currentNiceness() -> Int32 {
        #if canImport(Glibc)
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #elseif canImport(Musl)
        errno = 0
        return getpriority(PRIO_PROCESS, 0)
        #else
        return 0
        #endif
    }
}
