/// Interleaves of the low or high halves of two 128-bit vectors in 8-, 16-, 32-
/// and 64-bit units (SSE2's `punpckl…` and `punpckh…`), for any 16-byte vector
/// type: the loop filter's transposes work on bytes, the inverse DCT's on 16-bit
/// lanes. They are lane lists, which LLVM compiles to those instructions and which
/// are straight-line code for the Swift optimiser (the standard library's shuffles
/// and conversions are loops that count against its inlining budget; see
/// ``WebP/LossyEdgeFilter``), and `@_transparent`, so inlined before that budget is
/// counted and specialised to the caller's vector type.
extension WebP {
    enum LaneInterleave {
        @_transparent static func low8<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD16<UInt8>.self), y = unsafeBitCast(b, to: SIMD16<UInt8>.self)
            return unsafeBitCast(SIMD16<UInt8>(x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3],
                                               x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7]), to: V.self)
        }
        @_transparent static func high8<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD16<UInt8>.self), y = unsafeBitCast(b, to: SIMD16<UInt8>.self)
            return unsafeBitCast(SIMD16<UInt8>(x[8], y[8], x[9], y[9], x[10], y[10], x[11], y[11],
                                               x[12], y[12], x[13], y[13], x[14], y[14], x[15], y[15]), to: V.self)
        }
        @_transparent static func low16<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD8<UInt16>.self), y = unsafeBitCast(b, to: SIMD8<UInt16>.self)
            return unsafeBitCast(SIMD8<UInt16>(x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3]), to: V.self)
        }
        @_transparent static func high16<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD8<UInt16>.self), y = unsafeBitCast(b, to: SIMD8<UInt16>.self)
            return unsafeBitCast(SIMD8<UInt16>(x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7]), to: V.self)
        }
        @_transparent static func low32<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD4<UInt32>.self), y = unsafeBitCast(b, to: SIMD4<UInt32>.self)
            return unsafeBitCast(SIMD4<UInt32>(x[0], y[0], x[1], y[1]), to: V.self)
        }
        @_transparent static func high32<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD4<UInt32>.self), y = unsafeBitCast(b, to: SIMD4<UInt32>.self)
            return unsafeBitCast(SIMD4<UInt32>(x[2], y[2], x[3], y[3]), to: V.self)
        }
        @_transparent static func low64<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD2<UInt64>.self), y = unsafeBitCast(b, to: SIMD2<UInt64>.self)
            return unsafeBitCast(SIMD2<UInt64>(x[0], y[0]), to: V.self)
        }
        @_transparent static func high64<V: SIMD>(_ a: V, _ b: V) -> V {
            let x = unsafeBitCast(a, to: SIMD2<UInt64>.self), y = unsafeBitCast(b, to: SIMD2<UInt64>.self)
            return unsafeBitCast(SIMD2<UInt64>(x[1], y[1]), to: V.self)
        }
    }
}
