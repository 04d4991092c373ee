extension JPEG {
    /// Zig-zag reordering (T.81 figure A.6) and non-zero masks of coefficient
    /// blocks, eight 16-bit lanes at a time. The encoder stores its blocks in
    /// zig-zag order so that the entropy coders, which may visit a block up to
    /// twenty times (ten progressive scans, each counted then written), read
    /// them in order.
    enum ZigZag {
        typealias Row = SIMD8<Int16>

        /// Copies the 64 coefficients of `block` (natural order) into `zigZag`
        /// in zig-zag order.
        @inline(__always)
        static func reorder(_ block: UnsafeRawPointer, into zigZag: UnsafeMutablePointer<Int16>) {
            // Constant indices < 64 into the 64-value block: LLVM loads them straight into lanes.
            let b = Values(raw: block)
            let v0 = Row(b[0], b[1], b[8], b[16], b[9], b[2], b[3], b[10])
            let v1 = Row(b[17], b[24], b[32], b[25], b[18], b[11], b[4], b[5])
            let v2 = Row(b[12], b[19], b[26], b[33], b[40], b[48], b[41], b[34])
            let v3 = Row(b[27], b[20], b[13], b[6], b[7], b[14], b[21], b[28])
            let v4 = Row(b[35], b[42], b[49], b[56], b[57], b[50], b[43], b[36])
            let v5 = Row(b[29], b[22], b[15], b[23], b[30], b[37], b[44], b[51])
            let v6 = Row(b[58], b[59], b[52], b[45], b[38], b[31], b[39], b[46])
            let v7 = Row(b[53], b[60], b[61], b[54], b[47], b[55], b[62], b[63])
            // `zigZag` holds 64 values: vector i is bytes 16i ..< 16i + 16.
            let out = UnsafeMutableRawPointer(zigZag)
            out.storeBytes(of: v0, toByteOffset: 0, as: Row.self)
            out.storeBytes(of: v1, toByteOffset: 16, as: Row.self)
            out.storeBytes(of: v2, toByteOffset: 32, as: Row.self)
            out.storeBytes(of: v3, toByteOffset: 48, as: Row.self)
            out.storeBytes(of: v4, toByteOffset: 64, as: Row.self)
            out.storeBytes(of: v5, toByteOffset: 80, as: Row.self)
            out.storeBytes(of: v6, toByteOffset: 96, as: Row.self)
            out.storeBytes(of: v7, toByteOffset: 112, as: Row.self)
        }

        /// The 64 values at a raw address (the block between the passes is
        /// stored as vectors).
        struct Values {
            let raw: UnsafeRawPointer
            @inline(__always)
            subscript(_ i: Int) -> Int16 { raw.load(fromByteOffset: i &* 2, as: Int16.self) }
        }

        /// Bit k set for each non-zero value k of the 64 at `block`.
        @inline(__always)
        static func nonZeroMask(_ block: UnsafePointer<Int16>) -> UInt64 {
            // `block` holds 64 values: vector i is bytes 16i ..< 16i + 16.
            let raw = UnsafeRawPointer(block)
            var mask: UInt64 = 0
            for pair in 0..<4 {
                let a = raw.loadUnaligned(fromByteOffset: pair &* 32, as: Row.self)
                let b = raw.loadUnaligned(fromByteOffset: pair &* 32 &+ 16, as: Row.self)
                mask |= maskBits(a .!= Row(), b .!= Row()) &<< UInt64(pair &* 16)
            }
            return mask
        }

        /// Bit i set for each true lane i of `a`, bit 8 + i for `b`.
        @inline(__always)
        static func maskBits(_ a: SIMDMask<Row>, _ b: SIMDMask<Row>) -> UInt64 {
            // A true lane is all ones; the lanes' bits are disjoint, so OR-ing the halves sums them.
            // (`replacing(with:where:)` and `wrappedSum()` compiled to ~15 times the instructions.)
            let low = SIMD8<UInt16>(1, 2, 4, 8, 16, 32, 64, 128)
            let bits = (unsafeBitCast(a, to: SIMD8<UInt16>.self) & low) | (unsafeBitCast(b, to: SIMD8<UInt16>.self) & (low &<< 8))
            let halves = unsafeBitCast(bits, to: SIMD2<UInt64>.self)
            var x = halves[0] | halves[1]
            x |= x &>> 32
            x |= x &>> 16
            return x & 0xFFFF
        }
    }
}
