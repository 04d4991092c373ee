/// Where a lossy frame's RGBA rows go: a caller-owned buffer, a byte offset of
/// the frame's top-left pixel inside it and the distance between rows, so a
/// frame can land in its own buffer or at an offset inside a larger canvas.
extension WebP {
    struct LossyOutput {
        let base: UnsafeMutablePointer<UInt8>
        let origin: Int
        let bytesPerRow: Int

        /// Checks that `width`×`height` RGBA pixels at `origin` fit in `buffer`.
        init(_ buffer: UnsafeMutableRawBufferPointer, origin: Int, bytesPerRow: Int,
             width: Int, height: Int) throws(ImageDecodingError) {
            let rowBytes = width &* 4
            guard let base = buffer.baseAddress, origin >= 0, bytesPerRow >= rowBytes, height > 0 else {
                throw LossyDefect.destinationTooSmall.error
            }
            let (span, overflow) = (height &- 1).multipliedReportingOverflow(by: bytesPerRow)
            guard !overflow, origin <= buffer.count, span <= buffer.count &- origin,
                  rowBytes <= buffer.count &- origin &- span else {
                throw LossyDefect.destinationTooSmall.error
            }
            self.base = base.assumingMemoryBound(to: UInt8.self)
            self.origin = origin
            self.bytesPerRow = bytesPerRow
        }

        /// Row `y`'s first byte; every row below `height` is inside the buffer (checked in `init`).
        @inline(__always)
        func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + (origin &+ y &* bytesPerRow) }
    }
}
