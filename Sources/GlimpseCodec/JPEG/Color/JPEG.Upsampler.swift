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
            let stride = c.planeStride
            let lastRow = c.sampleHeight - 1
            switch c.upsampling {
            case .none:
                return plane + y &* stride
            case .h2v1Fancy:
                h2v1(plane + y &* stride, width: c.sampleWidth, out: scratch)
                return UnsafePointer(scratch)
            case .h1v2Fancy:
                let near = y >> 1
                let far = (y & 1) == 0 ? max(near - 1, 0) : min(near + 1, lastRow)
                let bias = (y & 1) == 0 ? 1 : 2
                let p0 = plane + near &* stride, p1 = plane + far &* stride
                for x in 0..<c.sampleWidth {
                    scratch[x] = UInt8(truncatingIfNeeded: (Int(p0[x]) &* 3 &+ Int(p1[x]) &+ bias) &>> 2)
                }
                return UnsafePointer(scratch)
            case .h2v2Fancy:
                let near = y >> 1
                let far = (y & 1) == 0 ? max(near - 1, 0) : min(near + 1, lastRow)
                h2v2(plane + near &* stride, plane + far &* stride, width: c.sampleWidth, out: scratch)
                return UnsafePointer(scratch)
            case .replicate(let h, let v):
                let source = plane + (y / v) &* stride
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
            var x = 1
            while x < width &- 1 {
                value = Int(input[x]) &* 3
                out[2 &* x] = UInt8(truncatingIfNeeded: (value &+ Int(input[x &- 1]) &+ 1) &>> 2)
                out[2 &* x &+ 1] = UInt8(truncatingIfNeeded: (value &+ Int(input[x &+ 1]) &+ 2) &>> 2)
                x &+= 1
            }
            value = Int(input[width &- 1])
            out[2 &* width &- 2] = UInt8(truncatingIfNeeded: (value &* 3 &+ Int(input[width &- 2]) &+ 1) &>> 2)
            out[2 &* width &- 1] = input[width &- 1]
        }

        /// 2:1 triangle filter in both directions (9/16, 3/16, 3/16, 1/16).
        @inline(__always)
        static func h2v2(_ near: UnsafePointer<UInt8>, _ far: UnsafePointer<UInt8>, width: Int,
                         out: UnsafeMutablePointer<UInt8>) {
            var this = Int(near[0]) &* 3 &+ Int(far[0])
            var next = Int(near[1]) &* 3 &+ Int(far[1])
            out[0] = UInt8(truncatingIfNeeded: (this &* 4 &+ 8) &>> 4)
            out[1] = UInt8(truncatingIfNeeded: (this &* 3 &+ next &+ 7) &>> 4)
            var last = this
            this = next
            var x = 2
            while x < width {
                next = Int(near[x]) &* 3 &+ Int(far[x])
                out[2 &* x &- 2] = UInt8(truncatingIfNeeded: (this &* 3 &+ last &+ 8) &>> 4)
                out[2 &* x &- 1] = UInt8(truncatingIfNeeded: (this &* 3 &+ next &+ 7) &>> 4)
                last = this
                this = next
                x &+= 1
            }
            out[2 &* width &- 2] = UInt8(truncatingIfNeeded: (this &* 3 &+ last &+ 8) &>> 4)
            out[2 &* width &- 1] = UInt8(truncatingIfNeeded: (this &* 4 &+ 7) &>> 4)
        }
    }
}
