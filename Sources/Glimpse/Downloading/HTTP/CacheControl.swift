/// The `Cache-Control` response directives a private cache acts on
/// (RFC 9111 §5.2.2). Unknown directives are ignored, as §5.2.3 requires.
struct CacheControl: Sendable, Hashable {
    /// `no-store` (§5.2.2.5): the response must not be stored at all.
    var noStore = false
    /// `no-cache` (§5.2.2.4): may be stored, but never served without revalidating.
    var noCache = false
    /// `must-revalidate` (§5.2.2.2): once stale, never served without revalidating,
    /// not even when the origin cannot be reached.
    var mustRevalidate = false
    /// `max-age` in seconds (§5.2.2.1).
    var maxAge: Int64?
    /// `immutable` (RFC 8246): fresh responses need no revalidation on refresh either.
    var immutable = false

    init() {}

    /// Parses one field value, or several joined by commas (how multiple field
    /// lines combine, RFC 9110 §5.3). A directive given twice keeps its first
    /// value; a malformed `max-age` counts as `0`, i.e. stale (§4.2.1 tells
    /// caches to treat conflicting or invalid freshness information as stale).
    init(parsing value: String) {
        for directive in Self.split(value) {
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard let rawName = parts.first else { continue }
            let name = rawName.trimmingSpaces().lowercased()
            let argument = parts.count == 2 ? parts[1].trimmingSpaces().unquoted() : nil
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = mustRevalidate || name == "must-revalidate"
            case "immutable": immutable = true
            case "max-age":
                if maxAge == nil { maxAge = argument.flatMap(Self.deltaSeconds) ?? 0 }
            default: continue
            }
        }
    }

    /// delta-seconds (RFC 9111 §1.2.2): digits only; values too large for the
    /// clock saturate at 2^31 as the RFC recommends.
    static func deltaSeconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard text.count <= 10, let value = Int64(text) else { return 2_147_483_648 }
        return min(value, 2_147_483_648)
    }

    /// Splits at commas outside quoted strings.
    private static func split(_ value: String) -> [Substring] {
        var pieces: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                pieces.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        pieces.append(value[start...])
        return pieces
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }

    func unquoted() -> String {
        let text = String(self)
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast())
    }
}
