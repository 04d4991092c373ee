extension WebP {
    /// Counts the frames of an animation from its chunk headers alone, without decoding
    /// any bitstream, when the rest of the RIFF payload is at hand (a file in memory or
    /// on disk): what ``ImageInfo/frameCount`` reports before any pixel memory.
    ///
    /// It walks the chunks as ``WebP/FrameReader`` reads an animation (libwebp's demuxer,
    /// `src/demux/demux.c`): an `ANMF` chunk's 16-byte header is followed by its frame's
    /// chunks, read as chunks of the file; a frame is an optional `ALPH` and then a
    /// `VP8 `/`VP8L` chunk, and an `ANMF` with no image chunk is dropped. Whatever the
    /// demuxer would refuse (a chunk past the RIFF size or its frame, an image outside a
    /// frame, a cut chunk header) gives `nil`: decoding will report the error, and the
    /// count stays unknown.
    enum FrameCounter {
        /// The frames of a whole file in memory, or `nil` when it is no animation, is cut
        /// before its RIFF size, or is malformed.
        static func count(file bytes: UnsafeRawBufferPointer) -> Int? {
            let header = RIFF.headerSize
            guard bytes.count >= header + RIFF.chunkHeaderSize + RIFF.vp8xSize,
                  bytes.webpLittleEndian(0, 4) == Int(FourCC.riff.value),
                  bytes.webpLittleEndian(8, 4) == Int(FourCC.webp.value) else { return nil }
            let riffEnd = RIFF.chunkHeaderSize &+ bytes.webpLittleEndian(4, 4)
            guard riffEnd <= bytes.count,
                  bytes.webpLittleEndian(header, 4) == Int(FourCC.vp8x.value),
                  bytes.webpLittleEndian(header &+ 4, 4) == RIFF.vp8xSize else { return nil }
            let flags = ExtendedHeader.Flags(rawValue: UInt8(bytes[header &+ RIFF.chunkHeaderSize]))
            guard flags.contains(.animation), flags.isSubset(of: .defined) else { return nil }
            let first = header &+ RIFF.chunkHeaderSize &+ RIFF.vp8xSize
            return count(following: UnsafeRawBufferPointer(rebasing: bytes[first..<riffEnd]), hasAnimationHeader: false)
        }

        /// The frames in `chunks`, which end where the RIFF payload ends and start at a
        /// chunk header, or, with `openFrameEnd`, inside an `ANMF` chunk right after its
        /// 16-byte header (that `ANMF` ends at `openFrameEnd`). `hasAnimationHeader`:
        /// an `ANIM` chunk came before.
        static func count(following chunks: UnsafeRawBufferPointer, openFrameEnd: Int? = nil,
                          hasAnimationHeader: Bool) -> Int? {
            var frames = 0
            var position = 0
            var sawAnimationHeader = hasAnimationHeader
            /// End of the open `ANMF` chunk, whether its frame has `ALPH` and an image.
            var frame: (end: Int, alpha: Bool, image: Bool)?
            if let openFrameEnd { frame = (end: openFrameEnd, alpha: false, image: false) }
            while chunks.count &- position >= RIFF.chunkHeaderSize {
                let tag = FourCC(UInt32(truncatingIfNeeded: chunks.webpLittleEndian(position, 4)))
                let size = chunks.webpLittleEndian(position &+ 4, 4)
                let payload = position &+ RIFF.chunkHeaderSize
                let paddedEnd = payload &+ RIFF.paddedSize(size)
                guard paddedEnd <= chunks.count else { return nil }
                if let open = frame {
                    switch tag {
                    case .alph where !open.alpha && !open.image:
                        guard paddedEnd <= open.end else { return nil }
                        frame?.alpha = true
                        position = paddedEnd
                        continue
                    case .vp8 where !open.image, .vp8l where !open.image && !open.alpha:
                        guard paddedEnd <= open.end else { return nil }
                        frame?.image = true
                        frames &+= 1
                        position = paddedEnd
                        continue
                    default:
                        // Any other chunk closes the frame; ALPH alone is an error.
                        if open.alpha && !open.image { return nil }
                        frame = nil
                    }
                }
                switch tag {
                case .vp8x, .alph, .vp8, .vp8l:
                    return nil
                case .anim:
                    guard RIFF.paddedSize(size) >= RIFF.animSize else { return nil }
                    sawAnimationHeader = true
                    position = paddedEnd
                case .anmf:
                    guard sawAnimationHeader, RIFF.paddedSize(size) >= RIFF.anmfHeaderSize else { return nil }
                    frame = (end: paddedEnd, alpha: false, image: false)
                    position = payload &+ RIFF.anmfHeaderSize
                default:
                    position = paddedEnd
                }
            }
            if let open = frame, open.alpha && !open.image { return nil }
            // The demuxer wants a whole chunk header wherever the payload goes on.
            guard position == chunks.count, frames > 0 else { return nil }
            return frames
        }
    }
}
