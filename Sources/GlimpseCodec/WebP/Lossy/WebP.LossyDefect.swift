/// What was wrong with a lossy (`VP8 `) frame, for the decoder's errors.
///
/// Each case names one rule of RFC 6386 that the data broke, or the point at
/// which it ran out. They are reported as `.malformed(.webp(.lossy(defect)))`
/// through ``WebP/LossyDefect/error``.
extension WebP {
    public enum LossyDefect: Error, Sendable, Hashable, CustomStringConvertible {
        /// Fewer than the 10 bytes of a key frame's tag, start code and size (RFC 6386 §9.1).
        case headerTruncated
        /// The frame tag marks an inter frame; a WebP still is one key frame (RFC 6386 §9.1).
        case notKeyFrame
        /// The version (profile) field is above 3 (RFC 6386 §9.1).
        case unknownProfile(Int)
        /// The frame tag says the frame is not to be shown.
        case invisibleFrame
        /// The start code is not `9d 01 2a` (RFC 6386 §9.1).
        case badStartCode
        /// Width or height is zero.
        case zeroDimension
        /// The first partition is longer than the data after the header (RFC 6386 §9.1).
        case firstPartitionTooLong
        /// The first partition ended inside the frame header (RFC 6386 §9.3–9.6).
        case headerPartitionEnded
        /// The partition size table or the last token partition is missing (RFC 6386 §9.5).
        case tokenPartitionsMissing
        /// The first partition ended before the modes of macroblock row `row` (RFC 6386 §19.3).
        case modesEnded(row: Int)
        /// A token partition ended inside macroblock (`column`, `row`) (RFC 6386 §13).
        case tokensEnded(column: Int, row: Int)
        /// The caller's destination is too small for the frame at the given origin.
        case destinationTooSmall

        public var description: String {
            switch self {
            case .headerTruncated: "VP8 frame header truncated"
            case .notKeyFrame: "VP8 frame is not a key frame"
            case .unknownProfile(let p): "VP8 profile \(p) is not 0–3"
            case .invisibleFrame: "VP8 frame is marked invisible"
            case .badStartCode: "VP8 start code is not 9d 01 2a"
            case .zeroDimension: "VP8 frame has zero width or height"
            case .firstPartitionTooLong: "VP8 first partition is longer than the data"
            case .headerPartitionEnded: "VP8 first partition ended inside the frame header"
            case .tokenPartitionsMissing: "VP8 token partitions missing"
            case .modesEnded(let row): "VP8 first partition ended before the modes of macroblock row \(row)"
            case .tokensEnded(let column, let row): "VP8 token partition ended in macroblock \(column),\(row)"
            case .destinationTooSmall: "destination buffer too small for the VP8 frame"
            }
        }

        /// The decoder error this defect is reported as. The one place that
        /// maps defects, so the typed error model can replace it in one edit.
        var error: ImageDecodingError { .malformed(.webp(.lossy(self))) }
    }
}
