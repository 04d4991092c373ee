/// The boolean entropy decoder of RFC 6386 §7, in libwebp's formulation: the
/// range is kept minus one, bits are consumed from a 64-bit window refilled
/// seven bytes at a time, and reading past the end yields zero bits once and
/// then sets ``isPastEnd``, the flag libwebp's `eof` uses to reject truncated
/// partitions. Matching that flag exactly decides which damaged files fail.
///
/// The reader borrows its bytes: it must not outlive the buffer it was made
/// from (the decoder creates every reader inside one `withUnsafeBytes` scope),
/// or it must be given its bytes again with ``rebase(_:)`` before the next read
/// (the incremental decoder does so on every call, as the bytes may have moved).
extension WebP {
    struct LossyBoolDecoder {
        private var base: UnsafePointer<UInt8>?
        private var position: Int
        private var end: Int
        /// Unread bits; the top `bits + 8` of them are the active window.
        private var value: UInt64 = 0
        /// The current range minus one, in 127...254 between calls (RFC 6386 §7.3).
        private var range: UInt32 = 254
        /// Bits in `value` below the 8-bit comparison window; negative means refill.
        private var bits: Int = -8
        /// True once a read needed a byte beyond the partition.
        private(set) var isPastEnd = false

        /// A reader over `bytes`; `bytes` must stay valid while the reader is used.
        init(_ bytes: UnsafeRawBufferPointer) {
            base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            position = 0
            end = bytes.count
            refill()
        }

        /// A reader of a partition of `size` bytes that have not arrived yet: give them
        /// with ``rebase(_:)`` before reading. It loads its first bits on the first read,
        /// where ``init(_:)`` loads them at once; an empty partition, whose bytes are all
        /// there, is read past its end at once as with ``init(_:)`` (libwebp's
        /// `VP8InitBitReader` marks it so, and the first macroblock on it then fails even
        /// when it reads no tokens).
        init(awaitingPartitionOf size: Int) {
            base = nil
            position = 0
            end = 0
            if size == 0 { refill() }
        }

        /// Points the reader at `bytes`, the same partition as before, possibly moved and
        /// with more of it available; reading goes on at the same offset. Only valid while
        /// ``isPastEnd`` is false (no zero bits have been made up for missing bytes).
        mutating func rebase(_ bytes: UnsafeRawBufferPointer) {
            base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            end = Swift.max(bytes.count, position)
        }

        @inline(__always)
        private mutating func refill() {
            if let base, position &+ 8 <= end {
                // Eight readable bytes remain (checked above); seven are used so that
                // 56 new bits always fit beside the at most 8 still in `value`.
                let word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                position &+= 7
                value = (value &<< 56) | (word &>> 8)
                bits &+= 56
            } else {
                refillLastBytes()
            }
        }

        private mutating func refillLastBytes() {
            if let base, position < end {
                value = (value &<< 8) | UInt64(base[position])
                position &+= 1
                bits &+= 8
            } else if !isPastEnd {
                value &<<= 8
                bits &+= 8
                isPastEnd = true
            } else {
                bits = 0  // keeps the shifts defined; the caller rejects the data anyway
            }
        }

        /// The part of the state that every bit changes. A token loop holds it in a
        /// local variable (``readBit(_:window:)``) so that it stays in registers, where
        /// the reader itself lives in memory and would be stored to after every bit.
        struct Window {
            var value: UInt64
            var range: UInt32
            var bits: Int
        }

        var window: Window {
            @inline(__always) get { Window(value: value, range: range, bits: bits) }
            @inline(__always) set {
                value = newValue.value
                range = newValue.range
                bits = newValue.bits
            }
        }

        /// Refills through the reader when the window has run out of bits.
        @inline(__always)
        private mutating func refillIfEmpty(_ w: inout Window) {
            if w.bits < 0 {
                window = w
                refill()
                w = window
            }
        }

        /// One bool whose probability of being 0 is `probability / 256` (RFC 6386 §7.3).
        @inline(__always)
        mutating func readBit(_ probability: Int) -> Bool {
            var w = window
            let bit = readBit(probability, window: &w)
            window = w
            return bit
        }

        /// ``readBit(_:)`` on a window taken from this reader (and given back to it
        /// once the caller is done): the reader is touched only to refill.
        @inline(__always)
        mutating func readBit(_ probability: Int, window w: inout Window) -> Bool {
            refillIfEmpty(&w)
            let split = (w.range &* UInt32(truncatingIfNeeded: probability)) &>> 8
            let value = UInt32(truncatingIfNeeded: w.value &>> UInt64(truncatingIfNeeded: w.bits))
            // The renormalisation is written out in both arms, each returning a constant,
            // so that after inlining the caller's test of the result folds into this one
            // branch (libwebp's compiled `VP8GetBit` has one branch a bit; a shared tail
            // made two, the second a repeat of the first).
            if value > split {
                let r = w.range &- split
                w.value &-= UInt64(split &+ 1) &<< UInt64(truncatingIfNeeded: w.bits)
                Self.renormalize(r, &w)
                return true
            } else {
                Self.renormalize(split &+ 1, &w)
                return false
            }
        }

        /// Brings a range in 1...255 back to 128...255 and stores it minus one.
        @inline(__always)
        private static func renormalize(_ range: UInt32, _ w: inout Window) {
            let shift = range.leadingZeroBitCount &- 24
            w.range = (range &<< UInt32(truncatingIfNeeded: shift)) &- 1
            w.bits &-= shift
        }

        /// `magnitude` with a sign read at probability one half (RFC 6386 §13.2),
        /// in libwebp's branch-free form, whose range bookkeeping differs from
        /// ``readBit(_:)`` at 128 and must be kept as is to stay bit-exact.
        @inline(__always)
        mutating func readSigned(_ magnitude: Int32, window w: inout Window) -> Int32 {
            refillIfEmpty(&w)
            let split = w.range &>> 1
            let value = UInt32(truncatingIfNeeded: w.value &>> UInt64(truncatingIfNeeded: w.bits))
            let mask = Int32(bitPattern: split &- value) &>> 31  // -1 when the bit is 1
            let umask = UInt32(bitPattern: mask)
            w.value &-= UInt64((split &+ 1) & umask) &<< UInt64(truncatingIfNeeded: w.bits)
            w.bits &-= 1
            w.range = (w.range &+ umask) | 1
            return (magnitude ^ mask) &- mask
        }

        /// An unsigned `count`-bit literal, most significant bit first (RFC 6386 §7.3 `L(n)`).
        mutating func readLiteral(_ count: Int) -> Int {
            var v = 0
            for _ in 0..<count { v = (v << 1) | (readBit(0x80) ? 1 : 0) }
            return v
        }

        /// A `count`-bit magnitude followed by a sign bit (RFC 6386 §9.3, §9.6).
        mutating func readSignedLiteral(_ count: Int) -> Int {
            let v = readLiteral(count)
            return readBit(0x80) ? -v : v
        }

        /// One flag bit at probability one half.
        mutating func readFlag() -> Bool { readBit(0x80) }
    }
}
