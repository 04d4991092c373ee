// `Array.withUnsafeMutableBytes` rethrows untyped errors; this keeps
// `ImageDecodingError` typed through the closure.
extension Array where Element == UInt8 {
    @inline(__always)
    mutating func withMutableDecodingBytes<R>(
        _ body: (UnsafeMutableRawBufferPointer) throws(ImageDecodingError) -> R
    ) throws(ImageDecodingError) -> R {
        let result: Result<R, ImageDecodingError> = withUnsafeMutableBytes { raw in
            do throws(ImageDecodingError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
