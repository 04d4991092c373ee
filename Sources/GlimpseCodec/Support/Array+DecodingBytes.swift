// The standard library's `withUnsafeBytes` rethrows untyped errors; these
// wrappers keep `ImageDecodingError` typed through the closure.

extension Array where Element == UInt8 {
    @inlinable
    func withDecodingBytes<R>(_ body: (UnsafeRawBufferPointer) throws(ImageDecodingError) -> R) throws(ImageDecodingError) -> R {
        let result: Result<R, ImageDecodingError> = withUnsafeBytes { raw in
            do throws(ImageDecodingError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
