// `Array.withUnsafeMutableBytes` rethrows untyped errors; this keeps
// `DecodingError` typed through the closure.
extension Array where Element == UInt8 {
    @inline(__always)
    mutating func withMutableDecodingBytes<R>(
        _ body: (UnsafeMutableRawBufferPointer) throws(DecodingError) -> R
    ) throws(DecodingError) -> R {
        let result: Result<R, DecodingError> = withUnsafeMutableBytes { raw in
            do throws(DecodingError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
