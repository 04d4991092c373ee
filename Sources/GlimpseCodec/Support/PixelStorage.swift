#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Allocation of decoder output buffers.
///
/// The codecs otherwise use only the standard library and zlib; the platform C library is
/// imported here for one call, `madvise`, because first-touch page faults dominate the cost
/// of filling a large buffer: a 5120×2880 RGBA8 image is 14,400 pages of 4 KiB, and faulting
/// them in took ~22 ms of a ~94 ms PNG decode (perf, this machine). Transparent huge pages
/// cut that to 29 faults.
enum PixelStorage {
    /// Smaller buffers hold no whole 2 MiB page, or one at best.
    static let hugePageThreshold = 4 << 20
    static let hugePageSize = 2 << 20

    /// `count` bytes that are not cleared first: the decoder writes every byte before it is
    /// shown (partial images clear the rows not written yet in the copy they hand out), and
    /// clearing up front is a full extra pass over memory (~4 % of a baseline JPEG decode).
    /// The caller has checked `count` against ``DecodingLimits``.
    ///
    /// With `adviseHugePages` (``DecodingOptions/adviseHugePages``) a large buffer's 2 MiB-aligned
    /// interior is marked `MADV_HUGEPAGE`, which only matters where the kernel's transparent
    /// huge pages are in `madvise` mode (the common default); elsewhere the advice is ignored.
    static func uninitializedBytes(count: Int, adviseHugePages: Bool) -> [UInt8] {
        // UInt8 is trivial: no element needs initialising to be destroyed safely.
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if adviseHugePages, count >= hugePageThreshold, let base = buffer.baseAddress {
                adviseHugePagesInside(base, count: count)
            }
            initialized = count
        }
    }

    /// `count` zeroed 16-bit values, with huge pages advised as for ``uninitializedBytes(count:adviseHugePages:)``:
    /// a progressive JPEG's coefficient store (16 MB at 2560×1600 4:2:2) is as large as its
    /// output, and glibc returns both to the kernel when they top the heap (`brk` trimming),
    /// so each decode faults the store in afresh. The caller has checked `count` against
    /// ``DecodingLimits``.
    static func zeroedCoefficients(count: Int, adviseHugePages: Bool) -> [Int16] {
        [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            if adviseHugePages, count * 2 >= hugePageThreshold, let base = buffer.baseAddress {
                // The same allocation seen as bytes: Int16 has no alignment stricter than bytes need.
                adviseHugePagesInside(UnsafeMutableRawPointer(base).assumingMemoryBound(to: UInt8.self), count: count * 2)
            }
            buffer.initialize(repeating: 0)
            initialized = count
        }
    }

    /// Advises huge pages for the whole 2 MiB pages inside `base..<base+count`: the advice
    /// must not reach past the allocation, and a partial huge page cannot be used anyway.
    private static func adviseHugePagesInside(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
        #if os(Linux)
        let start = UInt(bitPattern: base), end = start &+ UInt(count)
        let mask = UInt(hugePageSize &- 1)
        let alignedStart = (start &+ mask) & ~mask, alignedEnd = end & ~mask
        guard alignedEnd > alignedStart, let pointer = UnsafeMutableRawPointer(bitPattern: alignedStart) else { return }
        // Advice only: a failure (THP disabled, old kernel) leaves ordinary pages.
        _ = madvise(pointer, Int(alignedEnd &- alignedStart), MADV_HUGEPAGE)
        #endif
    }
}
