#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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

    /// `byteCount` zeroed bytes for a transient store that is as large as an image (a
    /// progressive JPEG's coefficients), released with ``releaseZeroed(_:byteCount:)``.
    /// The caller has checked `byteCount` against ``DecodingLimits``.
    ///
    /// From ``hugePageThreshold`` up the bytes are pages mapped for this store alone
    /// (`mmap`): the kernel hands them out zeroed, so they are written once, by the
    /// decoder, rather than cleared and then written; and they go back to the kernel as
    /// soon as the store is released instead of joining malloc's heap. Taken from malloc,
    /// the store doubled the heap's peak: glibc then trimmed store and output off the
    /// heap top after every decode (its trim threshold is twice the largest block it has
    /// mapped), and each decode faulted both in afresh; and a store above malloc's
    /// mapping threshold was mapped fresh and cleared again on top. Smaller stores come
    /// from the allocator and are cleared.
    static func zeroed(byteCount: Int, adviseHugePages: Bool) -> (base: UnsafeMutableRawPointer, mapped: Bool) {
        #if os(Linux)
        if byteCount >= hugePageThreshold {
            let mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            if let mapping, mapping != MAP_FAILED {
                if adviseHugePages {
                    // Page-aligned and `byteCount` long: the advice stays inside the mapping.
                    adviseHugePagesInside(mapping.assumingMemoryBound(to: UInt8.self), count: byteCount)
                }
                return (mapping, true)
            }
            // Out of address space or mappings: the allocator below fails or succeeds as it would.
        }
        #endif
        let base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        return (base, false)
    }

    /// Releases a store from ``zeroed(byteCount:adviseHugePages:)``.
    static func releaseZeroed(_ base: UnsafeMutableRawPointer, byteCount: Int, mapped: Bool) {
        #if os(Linux)
        if mapped {
            _ = munmap(base, byteCount)
            return
        }
        #endif
        base.deallocate()
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
