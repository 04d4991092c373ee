extension WebP {
    /// Writes the RIFF container around encoded bitstreams (RFC 9649 §2): the
    /// simple format (one `VP8L` chunk) for a still without metadata, otherwise
    /// the extended format, `VP8X` first, then `ICCP`, `ANIM`, the image or its
    /// `ANMF` frames, `EXIF` and `XMP ` in the order §2.7 requires.
    struct ContainerWriter {
        /// One `ANMF` frame (RFC 9649 §2.7.1.1): a `VP8L` bitstream, or a `VP8 `
        /// one after its `ALPH` chunk, placed at (`x`, `y`), both even, shown for
        /// `duration` milliseconds.
        struct Frame {
            var x: Int
            var y: Int
            var width: Int
            var height: Int
            var duration: Int
            /// Alpha-blend over the canvas (otherwise the rectangle is replaced).
            var blends: Bool
            /// Cleared to transparent black once shown.
            var disposesToBackground: Bool
            var bitstream: [UInt8]
            /// `bitstream` is VP8 (lossy) rather than VP8L.
            var isLossy = false
            /// The `ALPH` payload of a lossy frame with transparency.
            var alpha: [UInt8]? = nil
        }

        var iccProfile: [UInt8]?
        var exif: [UInt8]?
        var xmp: [UInt8]?

        /// A still image.
        func still(_ bitstream: [UInt8], width: Int, height: Int, hasAlpha: Bool) -> [UInt8] {
            var body: [UInt8] = []
            if iccProfile != nil || exif != nil || xmp != nil {
                appendExtendedHeader(to: &body, width: width, height: height, flags: hasAlpha ? [.alpha] : [])
                appendChunk(.vp8l, bitstream, to: &body)
                appendTrailingMetadata(to: &body)
            } else {
                appendChunk(.vp8l, bitstream, to: &body)
            }
            return Self.riff(body)
        }

        /// A lossy still: the simple format (one `VP8 ` chunk) when there is neither
        /// alpha nor metadata, else `VP8X`, `ICCP`, `ALPH`, `VP8 `, `EXIF`, `XMP ` (RFC 9649 §2.7).
        func lossyStill(_ bitstream: [UInt8], alpha: [UInt8]?, width: Int, height: Int) -> [UInt8] {
            var body: [UInt8] = []
            if iccProfile != nil || exif != nil || xmp != nil || alpha != nil {
                appendExtendedHeader(to: &body, width: width, height: height, flags: alpha != nil ? [.alpha] : [])
                if let alpha { appendChunk(.alph, alpha, to: &body) }
                appendChunk(.vp8, bitstream, to: &body)
                appendTrailingMetadata(to: &body)
            } else {
                appendChunk(.vp8, bitstream, to: &body)
            }
            return Self.riff(body)
        }

        /// An animation on a `width` × `height` canvas, played `loopCount` times (0: forever).
        func animation(_ frames: [Frame], width: Int, height: Int, loopCount: Int, hasAlpha: Bool) -> [UInt8] {
            var body: [UInt8] = []
            appendExtendedHeader(to: &body, width: width, height: height, flags: hasAlpha ? [.animation, .alpha] : [.animation])
            // Background colour transparent black (what decoders compose on anyway), then the loop count.
            var anim: [UInt8] = [0, 0, 0, 0]
            Self.appendLittleEndian(min(max(loopCount, 0), 0xffff), 2, to: &anim)
            appendChunk(.anim, anim, to: &body)
            for frame in frames {
                var payload: [UInt8] = []
                payload.reserveCapacity(RIFF.anmfHeaderSize + 2 * RIFF.chunkHeaderSize + frame.bitstream.count
                                        + (frame.alpha?.count ?? 0) + 2)
                Self.appendLittleEndian(frame.x / 2, 3, to: &payload)
                Self.appendLittleEndian(frame.y / 2, 3, to: &payload)
                Self.appendLittleEndian(frame.width - 1, 3, to: &payload)
                Self.appendLittleEndian(frame.height - 1, 3, to: &payload)
                Self.appendLittleEndian(min(max(frame.duration, 0), 0xff_ffff), 3, to: &payload)
                payload.append((frame.blends ? 0 : 2) | (frame.disposesToBackground ? 1 : 0))
                if frame.isLossy {
                    if let alpha = frame.alpha { appendChunk(.alph, alpha, to: &payload) }
                    appendChunk(.vp8, frame.bitstream, to: &payload)
                } else {
                    appendChunk(.vp8l, frame.bitstream, to: &payload)
                }
                appendChunk(.anmf, payload, to: &body)
            }
            appendTrailingMetadata(to: &body)
            return Self.riff(body)
        }

        private func appendExtendedHeader(to body: inout [UInt8], width: Int, height: Int, flags: ExtendedHeader.Flags) {
            var flags = flags
            if iccProfile != nil { flags.insert(.iccProfile) }
            if exif != nil { flags.insert(.exif) }
            if xmp != nil { flags.insert(.xmp) }
            var vp8x: [UInt8] = [flags.rawValue, 0, 0, 0]
            Self.appendLittleEndian(width - 1, 3, to: &vp8x)
            Self.appendLittleEndian(height - 1, 3, to: &vp8x)
            appendChunk(.vp8x, vp8x, to: &body)
            if let iccProfile { appendChunk(.iccp, iccProfile, to: &body) }
        }

        private func appendTrailingMetadata(to body: inout [UInt8]) {
            if let exif { appendChunk(.exif, exif, to: &body) }
            if let xmp { appendChunk(.xmp, xmp, to: &body) }
        }

        private func appendChunk(_ fourCC: FourCC, _ payload: [UInt8], to body: inout [UInt8]) {
            body.append(contentsOf: fourCC.bytes)
            Self.appendLittleEndian(payload.count, 4, to: &body)
            body.append(contentsOf: payload)
            if payload.count & 1 == 1 { body.append(0) }
        }

        private static func riff(_ body: [UInt8]) -> [UInt8] {
            var file = FourCC.riff.bytes
            file.reserveCapacity(RIFF.headerSize + body.count)
            appendLittleEndian(body.count + 4, 4, to: &file)
            file.append(contentsOf: FourCC.webp.bytes)
            file.append(contentsOf: body)
            return file
        }

        private static func appendLittleEndian(_ value: Int, _ count: Int, to bytes: inout [UInt8]) {
            for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
    }
}
