/// Conversions between stored rows (RGBA8 / RGBA16, straight alpha) and the
/// working form of the filtering transformers: `SIMD4<Float>` pixels in 0…1
/// with premultiplied alpha, so that transparent pixels carry no colour into
/// their neighbours when they are averaged.
///
/// All functions take raw pointers that the caller obtained from a scoped
/// `withUnsafe…` closure over buffers it has sized; they never allocate.
enum WorkingPixels {
    /// Converts `count` pixels at `source` into premultiplied working pixels.
    /// `table` is one of ``SampleTables/toWorking(format:linear:)``.
    @inline(__always)
    static func load(_ source: UnsafeRawPointer, count: Int, format: PixelFormat,
                     table: UnsafePointer<Float>, into destination: UnsafeMutablePointer<SIMD4<Float>>) {
        switch format {
        case .rgba8:
            let s = source.assumingMemoryBound(to: UInt8.self)
            for x in 0..<count {
                destination[x] = pixel8(s + x &* 4, table)
            }
        case .rgba16:
            for x in 0..<count {
                destination[x] = pixel16(source + x &* 8, table)
            }
        }
    }

    /// Adds `count` source pixels, premultiplied, into `groups` accumulators of
    /// `factor` pixels each (the last one may be short): the horizontal half of
    /// an integer box reduction.
    @inline(__always)
    static func accumulateBoxes(_ source: UnsafeRawPointer, count: Int, factor: Int, format: PixelFormat,
                                table: UnsafePointer<Float>, into accumulators: UnsafeMutablePointer<SIMD4<Float>>) {
        var x = 0
        var group = 0
        while x < count {
            let end = min(x &+ factor, count)
            var sum = SIMD4<Float>()
            switch format {
            case .rgba8:
                let s = source.assumingMemoryBound(to: UInt8.self)
                while x < end {
                    sum += pixel8(s + x &* 4, table)
                    x &+= 1
                }
            case .rgba16:
                while x < end {
                    sum += pixel16(source + x &* 8, table)
                    x &+= 1
                }
            }
            accumulators[group] += sum
            group &+= 1
        }
    }

    @inline(__always)
    static func pixel8(_ p: UnsafePointer<UInt8>, _ table: UnsafePointer<Float>) -> SIMD4<Float> {
        let a = Float(p[3]) * (1 / 255)
        return SIMD4(table[Int(p[0])] * a, table[Int(p[1])] * a, table[Int(p[2])] * a, a)
    }

    @inline(__always)
    static func pixel16(_ p: UnsafeRawPointer, _ table: UnsafePointer<Float>) -> SIMD4<Float> {
        let a = Float(p.loadUnaligned(fromByteOffset: 6, as: UInt16.self)) * (1 / 65535)
        return SIMD4(table[Int(p.loadUnaligned(as: UInt16.self))] * a,
                     table[Int(p.loadUnaligned(fromByteOffset: 2, as: UInt16.self))] * a,
                     table[Int(p.loadUnaligned(fromByteOffset: 4, as: UInt16.self))] * a,
                     a)
    }

    /// Converts `count` premultiplied working pixels back to stored samples
    /// with straight alpha, clamping overshoot (Lanczos and Mitchell ring).
    /// `fromLinear` is nil for gamma-space working values.
    @inline(__always)
    static func store(_ source: UnsafePointer<SIMD4<Float>>, count: Int, format: PixelFormat, linear: Bool,
                      into destination: UnsafeMutableRawPointer) {
        if format == .rgba8 && !linear {
            store8(source, count: count, into: destination)
            return
        }
        let maximum: Float = format == .rgba8 ? 255 : 65535
        if linear {
            SampleTables.fromLinear8.withUnsafeBufferPointer { table8 in
                SampleTables.fromLinear16.withUnsafeBufferPointer { table16 in
                    SampleTables.toWorkingLinear16.withUnsafeBufferPointer { back16 in
                    for x in 0..<count {
                        let (rgb, a) = straight(source[x])
                        // `rgb` is clamped to 0…1, so every index is in 0…65535.
                        // Scalar conversions: the generic SIMD rounding initialiser is not
                        // specialised and costs more than the whole resize.
                        let scaled = rgb * 65535 + 0.5
                        let (i0, i1, i2) = (Int(scaled.x), Int(scaled.y), Int(scaled.z))
                        let alpha = a * maximum + 0.5
                        switch format {
                        case .rgba8:
                            let d = destination.assumingMemoryBound(to: UInt8.self) + x &* 4
                            d[0] = table8[i0]; d[1] = table8[i1]; d[2] = table8[i2]
                            d[3] = UInt8(alpha)
                        case .rgba16:
                            let d = destination + x &* 8
                            d.storeBytes(of: nearest16(rgb.x, from: table16[i0], back16), as: UInt16.self)
                            d.storeBytes(of: nearest16(rgb.y, from: table16[i1], back16), toByteOffset: 2, as: UInt16.self)
                            d.storeBytes(of: nearest16(rgb.z, from: table16[i2], back16), toByteOffset: 4, as: UInt16.self)
                            d.storeBytes(of: UInt16(alpha), toByteOffset: 6, as: UInt16.self)
                        }
                    }
                    }
                }
            }
            return
        }
        for x in 0..<count {
            let (rgb, a) = straight(source[x])
            var v = rgb * maximum + 0.5
            v.w = a * maximum + 0.5
            // Each lane is in 0.5…maximum + 0.5, so truncation fits the sample type.
            switch format {
            case .rgba8:
                let d = destination.assumingMemoryBound(to: UInt8.self) + x &* 4
                d[0] = UInt8(v.x); d[1] = UInt8(v.y); d[2] = UInt8(v.z); d[3] = UInt8(v.w)
            case .rgba16:
                let d = destination + x &* 8
                d.storeBytes(of: UInt16(v.x), as: UInt16.self)
                d.storeBytes(of: UInt16(v.y), toByteOffset: 2, as: UInt16.self)
                d.storeBytes(of: UInt16(v.z), toByteOffset: 4, as: UInt16.self)
                d.storeBytes(of: UInt16(v.w), toByteOffset: 6, as: UInt16.self)
            }
        }
    }

    /// Σ weights[t] · pixels[t] for t < count, in four interleaved partial sums:
    /// one running sum would make every tap wait for the previous addition's
    /// latency, four keep the vector unit busy.
    @inline(__always)
    static func weightedSum(_ weights: UnsafePointer<Float>, _ pixels: UnsafePointer<SIMD4<Float>>,
                            count: Int) -> SIMD4<Float> {
        var s0 = SIMD4<Float>(), s1 = SIMD4<Float>(), s2 = SIMD4<Float>(), s3 = SIMD4<Float>()
        var t = 0
        while t &+ 4 <= count {
            s0 += SIMD4(repeating: weights[t]) * pixels[t]
            s1 += SIMD4(repeating: weights[t &+ 1]) * pixels[t &+ 1]
            s2 += SIMD4(repeating: weights[t &+ 2]) * pixels[t &+ 2]
            s3 += SIMD4(repeating: weights[t &+ 3]) * pixels[t &+ 3]
            t &+= 4
        }
        while t < count {
            s0 += SIMD4(repeating: weights[t]) * pixels[t]
            t &+= 1
        }
        return (s0 + s1) + (s2 + s3)
    }

    /// The hot case of ``store(_:count:format:linear:into:)``: RGBA8 without
    /// linearisation, branch-light and free of trapping conversions.
    ///
    /// Rounding adds 1.5·2²³ so that the float's low mantissa bits hold the
    /// value rounded to nearest (ties to even); every lane is clamped to 0…255
    /// first, inside the range where that trick is exact.
    @inline(__always)
    static func store8(_ source: UnsafePointer<SIMD4<Float>>, count: Int, into destination: UnsafeMutableRawPointer) {
        let magic = SIMD4<Float>(repeating: 12_582_912)
        for x in 0..<count {
            let p = source[x]
            let a = p.w < 1 ? p.w : 1
            var v = SIMD4<Float>()
            // False for NaN too, which then stores transparent black.
            if a > 1.0 / 131072 {
                v = p * (255 / a)
                v.x = v.x > 0 ? (v.x < 255 ? v.x : 255) : 0
                v.y = v.y > 0 ? (v.y < 255 ? v.y : 255) : 0
                v.z = v.z > 0 ? (v.z < 255 ? v.z : 255) : 0
                v.w = a * 255
            }
            let bits = unsafeBitCast(v + magic, to: SIMD4<UInt32>.self)
            let packed = (bits.x & 0xFF) | (bits.y & 0xFF) << 8 | (bits.z & 0xFF) << 16 | (bits.w & 0xFF) << 24
            destination.storeBytes(of: packed.littleEndian, toByteOffset: x &* 4, as: UInt32.self)
        }
    }

    /// The 16-bit sample whose linear value is nearest `value`, refining the
    /// table's `guess`. Near black one 16-bit step of linear light spans about
    /// 13 encoded steps, so the table alone could not round-trip 16-bit input;
    /// this short walk along the (increasing) decoding table can.
    @inline(__always)
    static func nearest16(_ value: Float, from guess: UInt16, _ linear: UnsafeBufferPointer<Float>) -> UInt16 {
        var g = Int(guess)
        while g < 65535 && (linear[g] + linear[g &+ 1]) * 0.5 < value { g &+= 1 }
        while g > 0 && (linear[g &- 1] + linear[g]) * 0.5 >= value { g &-= 1 }
        return UInt16(truncatingIfNeeded: g)
    }

    /// Un-premultiplies one pixel: colour in 0…1 (w lane = 0) and alpha in 0…1.
    ///
    /// Written with scalar comparisons, which compile to min/max instructions;
    /// the generic SIMD mask operations do not. Each `v > 0 ? … : 0` also sends
    /// NaN (impossible from finite input, but never trusted) to 0.
    @inline(__always)
    static func straight(_ p: SIMD4<Float>) -> (SIMD4<Float>, Float) {
        let a = p.w < 1 ? p.w : 1
        guard a > 1.0 / 131072 else { return (SIMD4(), 0) }
        let scaled = p * (1 / a)
        return (SIMD4(clamp(scaled.x), clamp(scaled.y), clamp(scaled.z), 0), a)
    }

    @inline(__always)
    static func clamp(_ v: Float) -> Float {
        v > 0 ? (v < 1 ? v : 1) : 0
    }
}
