extension JPEG {
    /// Brings one row of a subsampled component to output resolution with
    /// libjpeg-turbo's filters (jdsample.c behaviour): the "fancy" triangle
    /// filter for 2:1 ratios, replication otherwise. Edge samples are
    /// replicated, at the top and bottom from the first and last rows that
    /// carry image data.
    enum Upsampler {
        /// Returns a pointer to output row `y` of component `c`: into its plane when no
        /// upsampling is needed, otherwise into `scratch` (at least output width + 16 bytes).
        @inline(__always)
        static func row(_ y: Int, component c: Layout.Component, plane: UnsafePointer<UInt8>,
                        scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
            let stride = c.planeStride, ring = c.ringRows
            @inline(__always) func rowAt(_ r: Int) -> UnsafePointer<UInt8> {
                plane + (ring > 0 ? r % ring : r) &* stride
            }
            let lastRow = c.sampleHeight - 1
            switch c.upsampling {
            case .none:
                return rowAt(y)
            case .h2v1Fancy:
                h2v1(rowAt(y), width: c.sampleWidth, out: scratch)
                return UnsafePointer(scratch)
            case .h1v2Fancy:
                let near = y >> 1
                let far = (y & 1) == 0 ? max(near - 1, 0) : min(near + 1, lastRow)
                let bias = (y & 1) == 0 ? 1 : 2
                let p0 = rowAt(near), p1 = rowAt(far)
                for x in 0..<c.sampleWidth {
                    scratch[x] = UInt8(truncatingIfNeeded: (Int(p0[x]) &* 3 &+ Int(p1[x]) &+ bias) &>> 2)
                }
                return UnsafePointer(scratch)
            case .h2v2Fancy:
                let near = y >> 1
                let far = (y & 1) == 0 ? max(near - 1, 0) : min(near + 1, lastRow)
                h2v2(rowAt(near), rowAt(far), width: c.sampleWidth, out: scratch)
                return UnsafePointer(scratch)
            case .replicate(let h, let v):
                let source = rowAt(y / v)
                var o = scratch
                for x in 0..<c.sampleWidth {
                    o.update(repeating: source[x], count: h)
                    o += h
                }
                return UnsafePointer(scratch)
            }
        }

        /// 2:1 horizontal triangle filter: 3/4 of the nearer sample, 1/4 of the farther.
        @inline(__always)
        static func h2v1(_ input: UnsafePointer<UInt8>, width: Int, out: UnsafeMutablePointer<UInt8>) {
            var value = Int(input[0])
            out[0] = input[0]
            out[1] = UInt8(truncatingIfNeeded: (value &* 3 &+ Int(input[1]) &+ 2) &>> 2)
            // 16-bit lanes and one 16-bit store per output pair, so LLVM vectorises eight at a time.
            let pairs = UnsafeMutableRawPointer(out)
            var x = 1
            while x < width &- 1 {
                let three = Int16(input[x]) &* 3
                let even = UInt16(bitPattern: (three &+ Int16(input[x &- 1]) &+ 1) &>> 2)
                let odd = UInt16(bitPattern: (three &+ Int16(input[x &+ 1]) &+ 2) &>> 2)
                // `x < width - 1`: bytes 2x and 2x + 1 lie inside the 2·width output.
                pairs.storeBytes(of: UInt16(littleEndian: even | odd &<< 8), toByteOffset: 2 &* x, as: UInt16.self)
                x &+= 1
            }
            value = Int(input[width &- 1])
            out[2 &* width &- 2] = UInt8(truncatingIfNeeded: (value &* 3 &+ Int(input[width &- 2]) &+ 1) &>> 2)
            out[2 &* width &- 1] = input[width &- 1]
        }

        /// 2:1 triangle filter in both directions (9/16, 3/16, 3/16, 1/16):
        /// column sums 3·near + far first, then the horizontal step, written as
        /// plain loops over pointers that the compiler vectorises.
        @inline(__always)
        static func h2v2(_ near: UnsafePointer<UInt8>, _ far: UnsafePointer<UInt8>, width: Int,
                         out: UnsafeMutablePointer<UInt8>) {
            // Column sums fit in 16 bits (at most 4 * 255). Stack-sized chunks keep this allocation-free.
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: width &+ 2) { sums in
                // `sums` has width + 2 slots: [0] and [width + 1] replicate the edges.
                let sum = sums.baseAddress.unsafelyUnwrapped + 1
                for x in 0..<width {
                    sum[x] = Int16(near[x]) &* 3 &+ Int16(far[x])
                }
                sum[-1] = sum[0]
                sum[width] = sum[width &- 1]
                // 16-bit lanes throughout (3·1020 + 1020 + 8 < 2^15), and each output pair
                // stored as one 16-bit word, so LLVM vectorises eight columns at a time.
                let pairs = UnsafeMutableRawPointer(out)
                for x in 0..<width {
                    let this = sum[x] &* 3
                    let even = UInt16(bitPattern: (this &+ sum[x &- 1] &+ 8) &>> 4)
                    let odd = UInt16(bitPattern: (this &+ sum[x &+ 1] &+ 7) &>> 4)
                    // `x < width`: bytes 2x and 2x + 1 lie inside the 2·width output.
                    pairs.storeBytes(of: UInt16(littleEndian: even | odd &<< 8), toByteOffset: 2 &* x, as: UInt16.self)
                }
            }
        }
    }
}
