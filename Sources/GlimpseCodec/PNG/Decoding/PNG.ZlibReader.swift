extension PNG {
    /// A zlib stream (RFC 1950) read in pieces: the 2-byte header and the
    /// Adler-32 trailer are handled here, the deflate data by zlib in raw mode
    /// (so that the checksum runs through the faster ``Adler32``).
    struct ZlibReader: Sendable {
        private var stream = InflateStream(raw: true)
        private var header: [UInt8] = []
        private var trailer: [UInt8] = []
        private var deflateEnded = false
        private var checksum = Adler32()
        /// The trailer has been read and matched.
        private(set) var ended = false

        /// Makes the zlib state private to this copy (copy-on-write).
        mutating func makeUnique() {
            InflateStream.copyIfShared(&stream)
        }

        /// What one call to ``inflate(_:into:)`` did.
        struct Output {
            /// Bytes written to the output.
            var produced: Int
            /// The stream is broken. The `produced` bytes come before the break
            /// and must be used first, so that errors surface in stream order
            /// (a bad row filter before a bad checksum) whatever the chunking.
            var error: ImageDecodingError?
        }

        /// Consumes from `input` and inflates into `output`. Stops at the end
        /// of the stream.
        mutating func inflate(_ input: inout UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Output {
            if header.count < 2 {
                let take = min(2 &- header.count, input.count)
                header.append(contentsOf: input[..<take])
                input = UnsafeRawBufferPointer(rebasing: input[take...])
                guard header.count == 2 else { return Output(produced: 0) }
                do throws(ImageDecodingError) {
                    try Self.check(header: header[0], header[1])
                } catch {
                    return Output(produced: 0, error: error)
                }
            }
            var produced = 0
            if !deflateEnded {
                let step = stream.inflateReportingError(input: input, output: output)
                input = UnsafeRawBufferPointer(rebasing: input[step.consumed...])
                produced = step.produced
                checksum.update(UnsafeRawBufferPointer(rebasing: output[..<produced]))
                if let error = step.error { return Output(produced: produced, error: error) }
                deflateEnded = step.ended
            }
            if deflateEnded && !ended {
                let take = min(4 &- trailer.count, input.count)
                trailer.append(contentsOf: input[..<take])
                input = UnsafeRawBufferPointer(rebasing: input[take...])
                if trailer.count == 4 {
                    let stored = UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8 | UInt32(trailer[3])
                    guard stored == checksum.value else { return Output(produced: produced, error: .checksumMismatch) }
                    ended = true
                }
            }
            return Output(produced: produced)
        }

        /// RFC 1950 §2.2: method 8 (deflate), window ≤ 32 KiB, FCHECK, no preset dictionary.
        private static func check(header cmf: UInt8, _ flg: UInt8) throws(ImageDecodingError) {
            guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else { throw .malformed(.png(.zlibHeaderCheck)) }
            guard cmf & 0x0F == 8 else { throw .malformed(.png(.zlibCompressionMethod)) }
            guard cmf >> 4 <= 7 else { throw .malformed(.png(.zlibWindowSize)) }
            guard flg & 0x20 == 0 else { throw .malformed(.png(.zlibPresetDictionary)) }
        }
    }
}
