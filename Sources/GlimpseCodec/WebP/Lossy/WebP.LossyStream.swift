/// A lossy still image decoded while its `VP8 ` payload arrives, so that its
/// macroblock rows can be shown before the payload is complete (libwebp's
/// incremental decoder, `src/dec/idec_dec.c`, works the same way).
///
/// Nothing is decoded until the first partition (the frame header and every
/// macroblock's modes, RFC 6386 §9.2–9.11, §19.2) and the token partition sizes
/// (§9.5) are in. Then each call decodes the macroblocks whose tokens have
/// arrived: with one token partition (the usual case) rows follow the data; with
/// several, row `y` reads partition `y mod count`, which starts after all the
/// partitions before it, so rows follow as each partition's share arrives. A
/// macroblock whose tokens are cut is undone and retried on the next call (see
/// ``WebP/LossyFrameDecoder/advance(modes:partitions:partitionCount:completePartitions:output:rowsDecoded:)``),
/// so the pixels and errors are those of one call with the whole payload.
///
/// The `ALPH` plane of an image with alpha is decoded first and applied to rows as
/// they are final. Its error, if it has one, is held back until the bitstream is
/// done, where decoding the whole payload at once meets it.
extension WebP {
    struct LossyStream: Sendable {
        /// The bitstream decoder and its readers, created once the first partition is in.
        ///
        /// `@unchecked Sendable`: the instance is only mutated through ``LossyStream``'s
        /// mutating methods, after `isKnownUniquelyReferenced` has made sure no other
        /// value shares it (a shared one is copied first, as Array's storage is), so no
        /// instance is ever written while another thread can reach it.
        private final class State: @unchecked Sendable {
            var frame: LossyFrameDecoder
            var modes: LossyBoolDecoder
            var partitions: [LossyBoolDecoder]
            /// Payload offsets of each token partition.
            let partitionRanges: [Range<Int>]

            init(frame: consuming LossyFrameDecoder, modes: LossyBoolDecoder, partitions: [LossyBoolDecoder],
                 partitionRanges: [Range<Int>]) {
                self.frame = frame
                self.modes = modes
                self.partitions = partitions
                self.partitionRanges = partitionRanges
            }

            init(copying other: State) {
                frame = LossyFrameDecoder(copying: other.frame)
                modes = other.modes
                partitions = other.partitions
                partitionRanges = other.partitionRanges
            }
        }

        /// The frame header, once its ten bytes are in.
        private(set) var header: LossyFrameHeader?
        /// Size of the whole payload (from the chunk header).
        let payloadSize: Int
        private let options: DecodingOptions
        private var state: State?
        /// The decoded alpha plane, or the error decoding it gave.
        private let alpha: Result<[UInt8], ImageDecodingError>?
        /// Straight RGBA8, `width * 4` bytes a row; rows below ``rowsDone`` are final.
        private(set) var pixels: [UInt8] = []
        private(set) var rowsDone = 0
        private(set) var isFinished = false

        /// A stream for a `width`×`height` image whose payload has `payloadSize` bytes;
        /// `alpha` is the image's `ALPH` payload. The caller checked the output (and the
        /// alpha plane) against the limits in `options`.
        init(width: Int, height: Int, payloadSize: Int, alpha: [UInt8]?, options: DecodingOptions) {
            self.payloadSize = payloadSize
            self.options = options
            self.alpha = alpha.map { chunk in
                Result { () throws(ImageDecodingError) in
                    try chunk.withDecodingBytes { (raw) throws(ImageDecodingError) in
                        try WebP.AlphaPlane.decode(raw, width: width, height: height, limits: options.limits)
                    }
                }
            }
        }

        /// Decodes what `available` (the first bytes of the payload, at least as many as
        /// in the last call; all of it when `available.count == payloadSize`) allows.
        /// Returns whether the image is finished.
        mutating func advance(_ available: UnsafeRawBufferPointer) throws(ImageDecodingError) -> Bool {
            if isFinished { return true }
            if header == nil {
                guard available.count >= LossyFrameHeader.byteCount else { return false }
                header = try LossyFrameHeader(parsing: UnsafeRawBufferPointer(rebasing: available[0..<LossyFrameHeader.byteCount]),
                                              payloadSize: payloadSize)
            }
            guard let header else { return false }
            if state == nil {
                guard let created = try start(available, header: header) else { return false }
                state = created
                pixels = PixelStorage.uninitializedBytes(count: header.width &* header.height &* 4,
                                                         adviseHugePages: options.adviseHugePages)
            }
            guard var current = state else { return false }
            if !isKnownUniquelyReferenced(&current) { current = State(copying: current) }
            state = nil  // `current` is the only reference while decoding
            defer { state = current }

            let count = current.partitionRanges.count
            var complete = 0
            for (p, range) in current.partitionRanges.enumerated() {
                let end = Swift.min(range.upperBound, available.count), start = Swift.min(range.lowerBound, end)
                current.partitions[p].rebase(UnsafeRawBufferPointer(rebasing: available[start..<end]))
                if range.upperBound <= available.count, complete == p { complete = p &+ 1 }
            }
            let firstEnd = LossyFrameHeader.byteCount &+ header.firstPartitionSize
            current.modes.rebase(UnsafeRawBufferPointer(rebasing: available[LossyFrameHeader.byteCount..<firstEnd]))

            let width = header.width, height = header.height
            let plane = try? alpha?.get()
            var done = false
            var rows = rowsDone
            let result: Result<Void, ImageDecodingError> = pixels.withUnsafeMutableBytes { raw in
                do throws(ImageDecodingError) {
                    let output = try LossyOutput(raw, origin: 0, bytesPerRow: width &* 4, width: width, height: height)
                    done = try current.partitions.withUnsafeMutableBufferPointer { (readers) throws(ImageDecodingError) -> Bool in
                        // `readers` holds `count` (≥ 1) readers, as the frame expects.
                        guard let base = readers.baseAddress else { return false }
                        return try current.frame.advance(modes: &current.modes, partitions: base, partitionCount: count,
                                                         completePartitions: complete, output: output) { band in
                            if let plane { Self.applyAlpha(plane, rows: band, width: width, to: output) }
                            rows = band.upperBound
                        }
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
            rowsDone = rows
            if done {
                isFinished = true
                if case .failure(let error) = alpha { throw error }
            }
            return done
        }

        /// Reads the frame header and the partition layout once the first partition and
        /// the partition sizes are in (the checks of ``WebP/LossyDecoder``, in its order);
        /// `nil` while they are not.
        private func start(_ available: UnsafeRawBufferPointer, header: LossyFrameHeader) throws(ImageDecodingError) -> State? {
            let firstStart = LossyFrameHeader.byteCount
            let firstEnd = firstStart &+ header.firstPartitionSize
            guard available.count >= firstEnd else { return nil }
            try options.limits.checkDimensions(width: header.width, height: header.height)
            var modes = LossyBoolDecoder(UnsafeRawBufferPointer(rebasing: available[firstStart..<firstEnd]))
            var picture = LossyPictureHeader()
            try picture.parseStart(&modes)

            let count = picture.partitionCount
            let sizesEnd = firstEnd &+ 3 &* (count &- 1)
            guard sizesEnd <= payloadSize else { throw LossyDefect.tokenPartitionsMissing.error }
            guard available.count >= sizesEnd else { return nil }
            var ranges: [Range<Int>] = []
            var start = sizesEnd
            for p in 0..<count {
                var end = payloadSize
                if p < count &- 1 {
                    let s = firstEnd &+ 3 &* p
                    let size = Int(available[s]) | Int(available[s &+ 1]) << 8 | Int(available[s &+ 2]) << 16
                    end = start &+ Swift.min(size, payloadSize &- start)  // libwebp clips a size to what is left
                } else {
                    // libwebp requires the last partition to hold at least one byte.
                    guard start < payloadSize else { throw LossyDefect.tokenPartitionsMissing.error }
                }
                ranges.append(start..<end)
                start = end
            }
            picture.parseRest(&modes)
            _ = try options.limits.checkBytes(LossyFrameDecoder.workingBytes(columns: header.macroblockColumns,
                                                                             filterType: picture.filterType))
            return State(frame: LossyFrameDecoder(header: header, picture: picture), modes: modes,
                         partitions: ranges.map { LossyBoolDecoder(awaitingPartitionOf: $0.count) },
                         partitionRanges: ranges)
        }

        /// Writes the alpha of rows `rows` (the plane holds `width` values a row).
        private static func applyAlpha(_ plane: [UInt8], rows: Range<Int>, width: Int, to output: LossyOutput) {
            guard plane.count >= rows.upperBound &* width else { return }
            plane.withUnsafeBufferPointer { alpha in
                for y in rows {
                    let row = output.row(y)
                    // Row y has `width` pixels in the output and `width` values in the plane (checked above).
                    for x in 0..<width { row[x &* 4 &+ 3] = alpha[y &* width &+ x] }
                }
            }
        }

        /// The image so far: final rows, transparent black below.
        func rowsSoFar() -> [UInt8]? {
            guard rowsDone > 0, let header else { return nil }
            var copy = pixels
            let start = rowsDone &* header.width &* 4
            copy.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress, start <= raw.count else { return }
                (base + start).initializeMemory(as: UInt8.self, repeating: 0, count: raw.count &- start)
            }
            return copy
        }
    }
}
