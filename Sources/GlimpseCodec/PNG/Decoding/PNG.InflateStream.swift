import CZlib

extension PNG {
    /// A zlib inflate stream (RFC 1950/1951) on the heap, where zlib needs it:
    /// its internal state keeps a pointer back to the `z_stream`, so the
    /// stream must never move.
    ///
    /// Decoders hold it copy-on-write (``copyIfShared(_:)``): copying a decoder
    /// forks its state, as the ``ImageDecoder`` contract promises.
    final class InflateStream: @unchecked Sendable {
        // @unchecked Sendable: the stream is only mutated through `inflate` and
        // `reset`, which decoders call after `copyIfShared` made this instance
        // uniquely referenced; a shared instance is never written.
        let stream: UnsafeMutablePointer<z_stream>
        private let valid: Bool

        /// A stream expecting a zlib header (`raw == false`) or raw deflate data.
        init(raw: Bool = false) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            valid = inflateInit2_(stream, raw ? -15 : 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        }

        private init(copying other: InflateStream) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            valid = other.valid && inflateCopy(stream, other.stream) == Z_OK
        }

        deinit {
            if valid { inflateEnd(stream) }
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Replaces `stream` by a private copy when another decoder shares it.
        static func copyIfShared(_ stream: inout InflateStream) {
            if !isKnownUniquelyReferenced(&stream) { stream = InflateStream(copying: stream) }
        }

        /// Starts a new zlib stream (the next APNG frame).
        func reset() {
            if valid { inflateReset(stream) }
        }

        /// What one call to ``inflate(input:output:)`` did.
        struct Step {
            var consumed: Int
            var produced: Int
            var ended: Bool
            /// The stream is broken; `produced` bytes were still written before
            /// the break was found, and come first in stream order.
            var error: ImageDecodingError?
        }

        /// Inflates from `input` into `output` as far as both allow.
        func inflate(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) throws(ImageDecodingError) -> Step {
            let step = inflateReportingError(input: input, output: output)
            if let error = step.error { throw error }
            return step
        }

        /// Like ``inflate(input:output:)``, but a broken stream is reported in
        /// the step with the bytes produced before it, so that callers handle
        /// those first: errors then surface in stream order, whatever the chunking.
        func inflateReportingError(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) -> Step {
            guard valid else { return Step(consumed: 0, produced: 0, ended: false, error: .unsupported(.zlibInitialisation)) }
            guard let inBase = input.baseAddress, let outBase = output.baseAddress, !input.isEmpty || !output.isEmpty else {
                return Step(consumed: 0, produced: 0, ended: false)
            }
            // zlib takes 32-bit counts; larger buffers are fed in several calls.
            let inCount = min(input.count, Int(UInt32.max))
            let outCount = min(output.count, Int(UInt32.max))
            // zlib reads at most `avail_in` bytes from `next_in` and writes at most
            // `avail_out` bytes to `next_out`; both lie inside the caller's buffers.
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inBase.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(inCount)
            stream.pointee.next_out = outBase.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(outCount)
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            let consumed = inCount - Int(stream.pointee.avail_in)
            let produced = outCount - Int(stream.pointee.avail_out)
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            let error: ImageDecodingError?
            switch status {
            case Z_OK, Z_BUF_ERROR:
                return Step(consumed: consumed, produced: produced, ended: false)
            case Z_STREAM_END:
                return Step(consumed: consumed, produced: produced, ended: true)
            case Z_DATA_ERROR:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "invalid deflate data"
                error = message == "incorrect data check" ? .checksumMismatch : .malformed(.png(.deflateData))
            case Z_NEED_DICT:
                error = .malformed(.png(.zlibPresetDictionary))
            case Z_MEM_ERROR:
                error = .limitExceeded(.totalBytes)
            default:
                error = .malformed(.png(.deflateData))
            }
            return Step(consumed: consumed, produced: produced, ended: false, error: error)
        }
    }
}
