extension WebP {
    /// What is wrong with a WebP file's RIFF structure, its fixed chunks, or the
    /// frame headers of its bitstreams (RFC 9649 §2; libwebp's `webp_dec.c` and
    /// `demux.c` decide which of these make a file unreadable); the payload of
    /// ``WebP/Defect/container(_:)``.
    ///
    /// Match cases, never the ``description`` text.
    public enum ContainerDefect: Sendable, Hashable, CustomStringConvertible {
        /// The file does not start with `RIFF` and, at offset 8, `WEBP` (§2.4).
        case signature
        /// The RIFF size is below 12 (no room for one chunk header) or above
        /// libwebp's largest chunk payload.
        case riffSize(UInt32)
        /// A chunk declares a payload larger than libwebp's largest (2^32 − 10).
        case chunkSize(tag: String, size: UInt32)
        /// A chunk (with its padding, where the reference counts it) runs past the RIFF size.
        case chunkPastRIFFEnd(tag: String)
        /// Fewer than 8 bytes are left in the RIFF payload where a chunk header should start.
        case chunkHeaderCut
        /// The first chunk is none of `VP8 `, `VP8L` and `VP8X` (§2.5–§2.7).
        case firstChunk(tag: String)
        /// `VP8X` whose payload is not 10 bytes (§2.7).
        case extendedHeaderSize(Int)
        /// A second `VP8X` in an animation.
        case secondExtendedHeader
        /// Canvas (or frame) area of 2^32 pixels or more.
        case areaTooLarge(width: Int, height: Int)
        /// Reserved `VP8X` flag bits set in an animation (`demux.c` rejects them).
        case reservedFlags(UInt8)
        /// An extended still image with no `VP8 ` or `VP8L` chunk.
        case missingImage
        /// The image's size differs from the `VP8X` canvas (§2.7: they must agree for a still image).
        case sizeMismatch(canvasWidth: Int, canvasHeight: Int, width: Int, height: Int)
        /// The `VP8 ` frame header is unusable (RFC 6386 §9.1, `VP8GetInfo`): the reason says why.
        case lossyHeader(LossyHeaderProblem)
        /// The `VP8L` header has a wrong signature byte or a version other than 0 (RFC 9649 §3.2).
        case losslessHeader
        /// `ANIM` shorter than 6 bytes (§2.7.1.1).
        case animationHeaderSize(Int)
        /// `ANMF` before any `ANIM`.
        case frameBeforeAnimationHeader
        /// `ANMF` shorter than its 16-byte header.
        case frameHeaderSize(Int)
        /// `ALPH`, `VP8 ` or `VP8L` outside an `ANMF` in an animation.
        case imageOutsideFrame(tag: String)
        /// `ALPH` followed by a `VP8L` frame, which carries its own alpha.
        case alphaBeforeLossless
        /// `ALPH` after the frame's image chunk (it must precede `VP8 `).
        case alphaAfterImage
        /// A frame's chunks run past the end of its `ANMF` chunk.
        case framePastChunkEnd
        /// An `ANMF` frame with an `ALPH` chunk but no image chunk.
        case frameWithoutImage
        /// A frame that does not fit inside the canvas.
        case frameOutsideCanvas(x: Int, y: Int, width: Int, height: Int)
        /// An animation with no frame.
        case noFrames
        /// An `ALPH` header with an unknown compression method, filter or
        /// pre-processing, or reserved bits set (§2.7.1.4).
        case alphaHeader(UInt8)
        /// Raw `ALPH` data shorter than width × height bytes.
        case alphaDataSize(available: Int, needed: Int)

        /// Why `VP8GetInfo` refuses a `VP8 ` chunk.
        public enum LossyHeaderProblem: Sendable, Hashable {
            /// Fewer than the 10 bytes of a key frame header.
            case tooShort
            /// Bytes 3…5 are not the start code `9d 01 2a`.
            case startCode
            /// An interframe, an invisible frame or an unknown profile (> 3).
            case notDisplayableKeyFrame
            /// The first partition is as long as the chunk or longer.
            case partitionSize
            /// Width or height 0.
            case zeroSize
        }

        public var description: String {
            switch self {
            case .signature: "not a RIFF/WEBP file"
            case .riffSize(let size): "RIFF size \(size)"
            case .chunkSize(let tag, let size): "chunk \(tag) size \(size)"
            case .chunkPastRIFFEnd(let tag): "chunk \(tag) runs past the RIFF size"
            case .chunkHeaderCut: "chunk header cut by the RIFF size"
            case .firstChunk(let tag): "first chunk \(tag)"
            case .extendedHeaderSize(let size): "VP8X size \(size)"
            case .secondExtendedHeader: "second VP8X"
            case .areaTooLarge(let w, let h): "area \(w)x\(h) is 2^32 pixels or more"
            case .reservedFlags(let flags): "reserved VP8X flags in 0x\(String(flags, radix: 16))"
            case .missingImage: "no VP8 or VP8L chunk"
            case .sizeMismatch(let cw, let ch, let w, let h): "image \(w)x\(h) on a \(cw)x\(ch) canvas"
            case .lossyHeader(let problem): "VP8 frame header: \(problem)"
            case .losslessHeader: "VP8L header signature or version"
            case .animationHeaderSize(let size): "ANIM size \(size)"
            case .frameBeforeAnimationHeader: "ANMF before ANIM"
            case .frameHeaderSize(let size): "ANMF size \(size)"
            case .imageOutsideFrame(let tag): "\(tag) outside ANMF in an animation"
            case .alphaBeforeLossless: "ALPH before VP8L"
            case .alphaAfterImage: "ALPH after the image chunk"
            case .framePastChunkEnd: "frame runs past its ANMF chunk"
            case .frameWithoutImage: "ANMF without an image"
            case .frameOutsideCanvas(let x, let y, let w, let h): "frame \(w)x\(h) at (\(x), \(y)) outside the canvas"
            case .noFrames: "animation without frames"
            case .alphaHeader(let byte): "ALPH header 0x\(String(byte, radix: 16))"
            case .alphaDataSize(let available, let needed): "ALPH has \(available) bytes of \(needed)"
            }
        }
    }

    /// The error a container defect is reported as.
    static func malformed(_ defect: ContainerDefect) -> ImageDecodingError {
        .malformed(.webp(.container(defect)))
    }
}
