extension WebP {
    /// Reads a VP8L bitstream least-significant bit first (RFC 9649 §3.3) through
    /// a 64-bit window.
    ///
    /// Past the end of the data the window fills with zero bits, and
    /// ``isPastEnd`` tells whether more bits were consumed than libwebp's reader
    /// would allow: the data's bits, or 64 when the data is shorter than 8 bytes
    /// (its window starts as 8 bytes and the zero tail of a short stream counts as
    /// read). The decoder checks it where libwebp does and rejects the stream then.
    ///
    /// The reader borrows `base` for the duration of one `withUnsafeBytes` scope
    /// and never outlives it.
    struct LosslessBitReader {
        private let base: UnsafePointer<UInt8>
        private let count: Int
        /// Next byte of `base` to load into the window.
        private var position: Int = 0
        /// Unconsumed bits, the next one in bit 0.
        private(set) var window: UInt64 = 0
        /// Valid bits in `window` (real data or the zero tail).
        private(set) var bitCount: Int = 0
        /// Zero bits loaded past the end of the data.
        private var paddingBits: Int = 0
        /// libwebp's limit on consumed bits (`max(64, 8 * count)`).
        private let bitLimit: Int

        init(_ bytes: UnsafeRawBufferPointer) {
            // An empty buffer may have no address; with count 0 the placeholder is never read.
            base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 0x10)!
            count = bytes.count
            bitLimit = max(64, bytes.count &* 8)
            refill()
        }

        /// True when more bits were consumed than the stream holds.
        @inline(__always)
        var isPastEnd: Bool { consumedBits > bitLimit }

        /// Bits consumed so far.
        @inline(__always)
        var consumedBits: Int { position &* 8 &+ paddingBits &- bitCount }

        /// Tops the window up to at least 56 bits.
        @inline(__always)
        mutating func refill() {
            guard bitCount < 56 else { return }
            if position &+ 8 <= count {
                // Safe: position + 8 <= count, so the 8-byte load stays inside the buffer.
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                window |= word &<< UInt64(truncatingIfNeeded: bitCount)
                let bytes = (63 &- bitCount) &>> 3
                position &+= bytes
                bitCount &+= bytes &* 8
            } else {
                refillSlowly()
            }
        }

        @inline(__always)
        private mutating func refillSlowly() {
            while bitCount <= 56 {
                if position < count {
                    window |= UInt64(base[position]) &<< UInt64(truncatingIfNeeded: bitCount)
                    position &+= 1
                } else {
                    // Beyond the data the window takes zero bits, as libwebp's does.
                    paddingBits &+= 8
                }
                bitCount &+= 8
            }
        }

        /// Reads `n` bits (0...32), refilling first when the window is short.
        @inline(__always)
        mutating func read(_ n: Int) -> UInt32 {
            if bitCount < n { refill() }
            let value = UInt32(truncatingIfNeeded: window & ((1 &<< UInt64(truncatingIfNeeded: n)) &- 1))
            window &>>= UInt64(truncatingIfNeeded: n)
            bitCount &-= n
            return value
        }

        /// Reads `n` bits as an `Int`.
        @inline(__always)
        mutating func readInt(_ n: Int) -> Int { Int(read(n)) }

        /// Drops `n` bits already in the window (callers peeked them).
        @inline(__always)
        mutating func skip(_ n: Int) {
            window &>>= UInt64(truncatingIfNeeded: n)
            bitCount &-= n
        }
    }
}
