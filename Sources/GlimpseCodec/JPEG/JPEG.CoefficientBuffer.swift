extension JPEG {
    /// The decoder's coefficient store (libjpeg's whole-image coefficient buffer,
    /// jdcoefct.c): every block of every component, 64 `Int16` each, zero until a
    /// scan writes it. Progressive frames and sequential frames coded in several
    /// scans keep their coefficients here until the image is rendered.
    ///
    /// Its memory comes from ``PixelStorage/zeroed(byteCount:adviseHugePages:)``
    /// (zeroed pages of its own for a large image: see there why not malloc's heap).
    /// The decoder is a value type: it copies the store before writing to one that
    /// another copy of the decoder still shares (``uniqueForWriting(_:)``).
    final class CoefficientBuffer: @unchecked Sendable {
        // @unchecked: the memory is written only through a buffer that
        // `uniqueForWriting` has just found uniquely referenced, so a buffer that two
        // decoders (possibly on two threads) share is only ever read.
        let base: UnsafeMutablePointer<Int16>
        let count: Int
        private let mapped: Bool

        /// `count` zeroed coefficients; the caller has checked `count` against ``DecodingLimits``.
        init(count: Int, adviseHugePages: Bool) {
            let storage = PixelStorage.zeroed(byteCount: count * 2, adviseHugePages: adviseHugePages)
            // Fresh bytes, zeroed, 16-byte aligned (pages or the allocator's 16): valid Int16s.
            base = storage.base.bindMemory(to: Int16.self, capacity: count)
            self.count = count
            mapped = storage.mapped
        }

        private init(copying other: CoefficientBuffer) {
            let storage = PixelStorage.zeroed(byteCount: other.count * 2, adviseHugePages: false)
            base = storage.base.bindMemory(to: Int16.self, capacity: other.count)
            // Both hold `count` values.
            base.update(from: other.base, count: other.count)
            count = other.count
            mapped = storage.mapped
        }

        deinit {
            PixelStorage.releaseZeroed(UnsafeMutableRawPointer(base), byteCount: count * 2, mapped: mapped)
        }

        /// `buffer` itself when nothing else refers to it, otherwise a copy to write to.
        static func uniqueForWriting(_ buffer: inout CoefficientBuffer) -> UnsafeMutablePointer<Int16> {
            if !isKnownUniquelyReferenced(&buffer) { buffer = CoefficientBuffer(copying: buffer) }
            return buffer.base
        }
    }
}
