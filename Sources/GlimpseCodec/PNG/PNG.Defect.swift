extension PNG {
    /// What is wrong with a PNG or APNG file (the payload of
    /// ``DecodingDefect/png(_:)``), by stage: signature and chunk framing,
    /// IHDR, chunk order, the zlib stream and filters, APNG frames.
    ///
    /// The last group are defects a lenient decoder recovers from, as libpng
    /// (with its default settings) and browsers do; they appear in
    /// ``Image/warnings``.
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        // Chunk framing (PNG §5).
        /// The first 8 bytes are not the PNG signature (§5.2).
        case signature
        /// A chunk length above 2^31 − 1 (§5.3).
        case chunkLength(Int)
        /// A chunk type byte that is not an ASCII letter (§5.3).
        case chunkType

        // IHDR (§11.2.2).
        /// The first chunk is not IHDR.
        case headerNotFirst
        /// A second IHDR.
        case duplicateHeader
        /// IHDR is not 13 bytes long.
        case headerLength(Int)
        /// A width or height of 0 or above 2^31 − 1.
        case dimensions(width: Int, height: Int)
        /// A colour type other than 0, 2, 3, 4, 6.
        case colorType(UInt8)
        /// A bit depth the colour type does not allow.
        case bitDepth(Int, colorType: UInt8)
        /// A compression method other than 0.
        case compressionMethod(UInt8)
        /// A filter method other than 0.
        case filterMethod(UInt8)
        /// An interlace method other than 0 or 1.
        case interlaceMethod(UInt8)

        // Chunk order and presence (§5.6).
        /// PLTE after the first IDAT.
        case paletteAfterImageData
        /// A second PLTE.
        case duplicatePalette
        /// A PLTE length that is not a multiple of 3 in 3…768 (for an indexed image).
        case paletteLength(Int)
        /// An indexed image without PLTE.
        case missingPalette
        /// IDAT before IHDR.
        case imageDataBeforeHeader
        /// IDAT chunks separated by other chunks.
        case imageDataNotConsecutive
        /// No IDAT chunk before IEND.
        case missingImageData

        // Image data (§9, §10, RFC 1950/1951).
        /// The zlib header's check bits are wrong (RFC 1950 §2.2).
        case zlibHeaderCheck
        /// A zlib compression method other than deflate.
        case zlibCompressionMethod
        /// A zlib window above 32 KiB.
        case zlibWindowSize
        /// A zlib stream asking for a preset dictionary (not allowed in PNG).
        case zlibPresetDictionary
        /// Invalid deflate data (an impossible code, a distance too far back…).
        case deflateData
        /// A scanline filter type above 4 (§9.2).
        case filterType(UInt8)
        /// An internal buffer disagreed with the header; never expected.
        case imageBufferMismatch

        // APNG.
        /// fcTL is not 26 bytes long.
        case frameControlLength(Int)
        /// An fcTL dispose_op above 2.
        case disposeOp(UInt8)
        /// An fcTL blend_op above 1.
        case blendOp(UInt8)
        /// A frame of size 0 or reaching outside the canvas.
        case frameOutsideCanvas
        /// The default image's fcTL does not cover the whole canvas.
        case defaultFrameNotCanvas
        /// An fcTL or fdAT whose sequence number is not the next one.
        case sequenceNumber(Int)
        /// An fdAT too short to hold its sequence number.
        case frameDataLength(Int)
        /// An fdAT before any fcTL.
        case frameDataWithoutControl
        /// An fcTL followed by no frame data.
        case frameControlWithoutData
        /// A frame whose data stopped before all its rows.
        case frameDataIncomplete
        /// Fewer frames than acTL declares.
        case frameCount(declared: Int, found: Int)

        // Recovered in lenient mode.
        /// An ancillary chunk's CRC-32 does not match; the chunk is dropped (§5.3).
        case ancillaryChecksum(ChunkType)
        /// The image data stopped before the last row; the rows decoded so far are kept.
        case imageDataEnded
        /// The file ends without IEND (§11.2.5).
        case missingEnd
        /// Every row was decoded but the zlib stream stops before its end and
        /// Adler-32 (RFC 1950 §2.2), so its integrity is unchecked.
        case unterminatedImageData
        /// The zlib stream's Adler-32 (RFC 1950 §2.2) does not match the image data,
        /// all of whose rows were decoded (a strict decoder reports
        /// ``ImageDecodingError/checksumMismatch``).
        case imageDataChecksum

        public var description: String {
            switch self {
            case .signature: "PNG signature"
            case .chunkLength(let n): "chunk length \(n)"
            case .chunkType: "chunk type"
            case .headerNotFirst: "IHDR is not the first chunk"
            case .duplicateHeader: "second IHDR"
            case .headerLength(let n): "IHDR length \(n)"
            case .dimensions(let w, let h): "IHDR dimensions \(w)x\(h)"
            case .colorType(let t): "IHDR colour type \(t)"
            case .bitDepth(let d, let t): "IHDR bit depth \(d) for colour type \(t)"
            case .compressionMethod(let m): "IHDR compression method \(m)"
            case .filterMethod(let m): "IHDR filter method \(m)"
            case .interlaceMethod(let m): "IHDR interlace method \(m)"
            case .paletteAfterImageData: "PLTE after IDAT"
            case .duplicatePalette: "second PLTE"
            case .paletteLength(let n): "PLTE length \(n)"
            case .missingPalette: "PLTE missing"
            case .imageDataBeforeHeader: "IDAT before IHDR"
            case .imageDataNotConsecutive: "IDAT chunks are not consecutive"
            case .missingImageData: "no IDAT chunk"
            case .zlibHeaderCheck: "zlib: incorrect header check"
            case .zlibCompressionMethod: "zlib: unknown compression method"
            case .zlibWindowSize: "zlib: invalid window size"
            case .zlibPresetDictionary: "zlib: preset dictionary"
            case .deflateData: "zlib: invalid deflate data"
            case .filterType(let t): "filter type \(t)"
            case .imageBufferMismatch: "image buffer does not match the header"
            case .frameControlLength(let n): "fcTL length \(n)"
            case .disposeOp(let op): "fcTL dispose_op \(op)"
            case .blendOp(let op): "fcTL blend_op \(op)"
            case .frameOutsideCanvas: "fcTL region outside the canvas"
            case .defaultFrameNotCanvas: "the default image's fcTL does not cover the canvas"
            case .sequenceNumber(let n): "APNG sequence number \(n)"
            case .frameDataLength(let n): "fdAT length \(n)"
            case .frameDataWithoutControl: "fdAT without fcTL"
            case .frameControlWithoutData: "fcTL without frame data"
            case .frameDataIncomplete: "APNG frame data incomplete"
            case .frameCount(let declared, let found): "acTL declares \(declared) frames, the file has \(found)"
            case .ancillaryChecksum(let type): "CRC error in ancillary chunk \(type); chunk dropped"
            case .imageDataEnded: "image data ended early; rows below are transparent"
            case .missingEnd: "no IEND chunk"
            case .unterminatedImageData: "zlib stream without its end and Adler-32"
            case .imageDataChecksum: "zlib: incorrect data check after the last row"
            }
        }
    }
}
