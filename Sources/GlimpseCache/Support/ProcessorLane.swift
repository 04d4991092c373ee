#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of a power-of-two number of lanes the calling thread should write: its CPU number,
/// masked. Threads running on different CPUs then write different memory; a thread that
/// migrates between reading its lane and using it only costs a shared cache line, never
/// correctness, since lanes are used under the owner's lock.
@usableFromInline
enum ProcessorLane {
    /// Lanes worth having: one per online CPU, rounded up to a power of two, at most 8.
    static let preferredCount: Int = {
        #if os(Linux)
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        #else
        let online = 1
        #endif
        var lanes = 1
        while lanes < min(max(online, 1), 8) { lanes <<= 1 }
        return lanes
    }()

    /// glibc's `sched_getcpu`, which reads the CPU number the kernel keeps in the thread's
    /// rseq area or vDSO (no system call). The Glibc module hides its declaration behind
    /// `_GNU_SOURCE`, so it is looked up once by name; `nil` where the C library lacks it.
    private static let schedGetCPU: (@convention(c) () -> Int32)? = {
        #if os(Linux)
        // A nil handle is RTLD_DEFAULT: the symbol as the process already links it.
        guard let symbol = dlsym(nil, "sched_getcpu") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
        #else
        return nil
        #endif
    }()

    /// The calling thread's lane in `0...mask` (`mask` = lane count − 1).
    @usableFromInline
    static func current(mask: Int) -> Int {
        guard mask > 0, let schedGetCPU else { return 0 }
        // -1 (unsupported) masks to the last lane, which is as good as any.
        return Int(schedGetCPU()) & mask
    }
}
