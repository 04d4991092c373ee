/// The first part of a body whose transfer failed, with what is needed to ask
/// for the rest of the *same* representation (RFC 9110 §14, §13.1.5).
///
/// Only kept when the response named a validator that identifies the bytes —
/// a strong entity tag, or failing that `Last-Modified` — and announced
/// `Accept-Ranges: bytes`; without both, a later range could belong to a
/// different version and the two halves would be spliced into garbage.
package struct ResumableData: Sendable, Hashable {
    /// The bytes received, from offset 0.
    package var body: [UInt8]
    /// The value for `If-Range`: the strong ETag, or `Last-Modified`.
    package var validator: String
    /// The full length from the first response, when it said.
    package var totalLength: Int64?

    /// What to keep of a failed attempt: `nil` when it cannot be resumed.
    package init?(body: [UInt8], status: Int, headers: [String: String]) {
        guard !body.isEmpty, let validator = Self.validator(in: headers) else { return nil }
        let acceptsRanges = headers["accept-ranges"]?.lowercased().split(separator: ",")
            .contains { $0.trimmingSpaces() == "bytes" } ?? false
        // A 206 is itself proof that the server serves ranges.
        guard status == 206 || (status == 200 && acceptsRanges) else { return nil }
        self.body = body
        self.validator = validator
        if status == 206 {
            totalLength = headers["content-range"].flatMap(ContentRange.init(parsing:))?.completeLength
        } else {
            totalLength = headers["content-length"].flatMap { Int64($0.trimmingSpaces()) }
        }
    }

    /// The validator a range request may name: a strong ETag (a weak one,
    /// `W/"…"`, never matches in `If-Range`, RFC 9110 §13.1.5), else `Last-Modified`.
    package static func validator(in headers: [String: String]) -> String? {
        if let tag = headers["etag"]?.trimmingSpaces(), tag.hasPrefix("\"") { return tag }
        return headers["last-modified"]?.trimmingSpaces()
    }

    /// The header fields that ask for the rest.
    package var rangeHeaders: [String: String] { ["Range": "bytes=\(body.count)-", "If-Range": validator] }

    /// Whether a `206` answer continues exactly these bytes: its
    /// `Content-Range` starts where the body ends and agrees with the known
    /// length, and the validator it carries, if any, is the one asked for.
    package func isContinued(by headers: [String: String]) -> Bool {
        guard let range = headers["content-range"].flatMap(ContentRange.init(parsing:)),
              range.first == Int64(body.count) else { return false }
        if let total = totalLength, let complete = range.completeLength, total != complete { return false }
        if let tag = headers["etag"]?.trimmingSpaces(), validator.hasPrefix("\""), tag != validator { return false }
        if !validator.hasPrefix("\""), let modified = headers["last-modified"]?.trimmingSpaces(),
           modified != validator { return false }
        return true
    }
}

/// A `Content-Range` field of a single-part `206` (RFC 9110 §14.4):
/// `bytes first-last/complete` or `bytes first-last/*`.
package struct ContentRange: Sendable, Hashable {
    package var first: Int64
    package var last: Int64
    package var completeLength: Int64?

    package init?(parsing value: String) {
        let text = value.trimmingSpaces()
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst(6).trimmingSpaces()
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, Self.isDigits(bounds[0]), Self.isDigits(bounds[1]),
              let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else { return nil }
        self.first = first
        self.last = last
        if halves[1] == "*" {
            completeLength = nil
        } else {
            guard Self.isDigits(halves[1]), let complete = Int64(String(halves[1])), last < complete else { return nil }
            completeLength = complete
        }
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
