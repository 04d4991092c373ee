import CZlib

extension PNG {
    /// One-shot zlib compression (RFC 1950) through the system zlib.
    enum Deflate {
        /// Compresses `data` into a complete zlib stream at `level` (0…9).
        static func compress(_ data: [UInt8], level: Int) -> [UInt8] {
            var stream = z_stream()
            let clamped = Int32(max(0, min(9, level)))
            guard deflateInit2_(&stream, clamped, Z_DEFLATED, 15, 9, Z_DEFAULT_STRATEGY,
                                zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return [] }
            defer { deflateEnd(&stream) }
            var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 64)
            var produced = 0
            data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    guard let outBase = out.baseAddress else { return }
                    // zlib reads `avail_in` bytes of `input` and writes at most `avail_out`
                    // bytes to `out`; deflateBound sized `out` for the whole stream.
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
                    stream.avail_in = uInt(input.count)
                    stream.next_out = outBase.assumingMemoryBound(to: Bytef.self)
                    stream.avail_out = uInt(out.count)
                    while deflate(&stream, Z_FINISH) == Z_OK {}
                    produced = out.count - Int(stream.avail_out)
                }
            }
            output.removeSubrange(produced...)
            return output
        }
    }
}
