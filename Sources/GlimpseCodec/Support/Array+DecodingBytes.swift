// The standard library's `withUnsafeBytes` rethrows untyped errors; these
// wrappers keep `DecodingError` typed through the closure.

extension Array where Element == UInt8 {
    @inlinable
    func withDecodingBytes<R>(_ body: (UnsafeRawBufferPointer) throws(DecodingError) -> R) throws(DecodingError) -> R {
        let result: Result<R, DecodingError> = withUnsafeBytes { raw in
            do throws(DecodingError) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
