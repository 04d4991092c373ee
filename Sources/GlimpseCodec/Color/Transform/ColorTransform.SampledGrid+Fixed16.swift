extension ColorTransform.SampledGrid {
    /// Interpolates at 16-bit device values exactly as LittleCMS's 16-bit kernels do
    /// (`cmsintrp.c`): positions in 15.16 fixed point (`_cmsToFixedDomain`), then
    /// `Eval1Input`'s linear interpolation for one input and `TetrahedralInterp16` for
    /// three, with their roundings. `input` holds `inputs` values (1 or 3; CMYK grids are
    /// read by the 8-bit path only); the three results are written to `output`.
    @inline(__always)
    func interpolate16(_ s: UnsafePointer<UInt16>, _ input: SIMD3<Int32>, into output: UnsafeMutablePointer<UInt16>) {
        let domain = Int32(points - 1)
        if inputs == 1 {
            let v = input[0]
            guard v != 0xFFFF else {
                let last = Int(domain) * strides[0]
                for k in 0..<3 { output[k] = s[last + k] }
                return
            }
            let f = Self.toFixedDomain(v &* domain)
            let k0 = Int(f >> 16) * strides[0], rest = f & 0xFFFF
            for k in 0..<3 {
                let low = s[k0 + k], high = s[k0 + strides[0] + k]
                // `LinearInterp`, in its unsigned 32-bit arithmetic (wrapping for a falling segment).
                let difference = UInt32(bitPattern: Int32(high) &- Int32(low)) &* UInt32(rest) &+ 0x8000
                output[k] = UInt16(truncatingIfNeeded: (difference >> 16) &+ UInt32(low))
            }
            return
        }
        // Inputs are 0…65535 and grids have at most 33 points: the products fit in Int32.
        let fx = Self.toFixedDomain(input[0] &* domain), fy = Self.toFixedDomain(input[1] &* domain)
        let fz = Self.toFixedDomain(input[2] &* domain)
        let rx = fx & 0xFFFF, ry = fy & 0xFFFF, rz = fz & 0xFFFF
        let base = Int(fx >> 16) * strides[0] + Int(fy >> 16) * strides[1] + Int(fz >> 16) * strides[2]
        // The neighbour along each axis, none at the last code (where the cell ends on the last node).
        let x1 = input[0] == 0xFFFF ? 0 : strides[0], y1 = input[1] == 0xFFFF ? 0 : strides[1]
        let z1 = input[2] == 0xFFFF ? 0 : strides[2]
        // The tetrahedron's corners after the origin, in LittleCMS's order of the six cases.
        let a: Int, b: Int, c: Int, wa: Int32, wb: Int32, wc: Int32
        if rx >= ry {
            if ry >= rz {
                (a, b, c, wa, wb, wc) = (x1, x1 + y1, x1 + y1 + z1, rx, ry, rz)
            } else if rz >= rx {
                (a, b, c, wa, wb, wc) = (z1, z1 + x1, z1 + x1 + y1, rz, rx, ry)
            } else {
                (a, b, c, wa, wb, wc) = (x1, x1 + z1, x1 + z1 + y1, rx, rz, ry)
            }
        } else if rx >= rz {
            (a, b, c, wa, wb, wc) = (y1, y1 + x1, y1 + x1 + z1, ry, rx, rz)
        } else if ry >= rz {
            (a, b, c, wa, wb, wc) = (y1, y1 + z1, y1 + z1 + x1, ry, rz, rx)
        } else {
            (a, b, c, wa, wb, wc) = (z1, z1 + y1, z1 + y1 + x1, rz, ry, rx)
        }
        for k in 0..<3 {
            let c0 = Int32(s[base + k]), c1 = Int32(s[base + a + k]), c2 = Int32(s[base + b + k]), c3 = Int32(s[base + c + k])
            // Wrapping as C's 32-bit arithmetic does on the (rare) steepest cells, never trapping.
            let rest = (c1 &- c0) &* wa &+ (c2 &- c1) &* wb &+ (c3 &- c2) &* wc &+ 0x8001
            output[k] = UInt16(truncatingIfNeeded: c0 &+ ((rest &+ (rest >> 16)) >> 16))
        }
    }

    /// `_cmsToFixedDomain`: a value scaled by 0…65535 to 15.16 fixed point (C's truncating division).
    @inline(__always)
    static func toFixedDomain(_ a: Int32) -> Int32 {
        a + (a + 0x7FFF) / 0xFFFF
    }
}
