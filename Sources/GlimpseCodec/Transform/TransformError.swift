/// Why a transformer refused an image. Like ``ImageDecodingError`` these are
/// permanent: the same transformer on the same image fails the same way.
public enum TransformError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parameter is out of range (zero or negative size, a crop outside the
    /// image, a NaN angle…); the string names it.
    case invalidParameter(String)
    /// The output (or the working memory it needs) would exceed the
    /// transformer's ``DecodingLimits``.
    case limitExceeded(DecodingLimits.Limit)
    /// The input has no pixels, so there is nothing to transform.
    case emptyImage

    public var description: String {
        switch self {
        case .invalidParameter(let what): "invalid transform parameter: \(what)"
        case .limitExceeded(let limit): "transform limit exceeded: \(limit)"
        case .emptyImage: "empty image"
        }
    }
}

extension DecodingLimits {
    /// Checks an output frame of `width` × `height` pixels in `format`, repeated
    /// `frames` times, plus `workingBytes` of scratch memory, before anything is
    /// allocated.
    func checkTransformOutput(width: Int, height: Int, format: PixelFormat,
                              frames: Int = 1, workingBytes: Int = 0) throws(TransformError) {
        guard width > 0, height > 0 else { throw .invalidParameter("output size \(width)x\(height)") }
        do {
            try checkDimensions(width: width, height: height)
            try checkFrames(frames)
            let frameBytes = try checkBytes(width &* height, of: format.bytesPerPixel)
            try checkBytes(frameBytes, of: frames, alreadyUsed: workingBytes)
        } catch {
            if case .limitExceeded(let limit) = error { throw .limitExceeded(limit) }
            throw .limitExceeded(.totalBytes)
        }
    }
}

extension PixelBuffer {
    /// Refuses an empty buffer, and one whose `bytes` no longer match its
    /// dimensions (the array is a public `var`): the transformers read it
    /// through unchecked pointers and rely on that match.
    func checkTransformable() throws(TransformError) {
        guard width > 0, height > 0 else { throw .emptyImage }
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        let (count, overflow2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !overflow, !overflow2, count == bytes.count else {
            throw .invalidParameter("pixel buffer of \(bytes.count) bytes for \(width)x\(height)")
        }
    }
}
