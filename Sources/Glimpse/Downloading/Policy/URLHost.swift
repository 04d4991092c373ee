/// The host of a URL, read the way the connection would read it: an address
/// literal in any legal spelling, or a name to be resolved.
///
/// IPv4 literals follow the WHATWG URL Standard's IPv4 parser (§3.5), which
/// is also `inet_aton`'s grammar that `getaddrinfo` and libcurl accept: one to
/// four dot-separated parts, each decimal, hexadecimal (`0x…`) or octal
/// (leading `0`), the last part filling the remaining bytes — so
/// `2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1`, `127.0.1` and
/// `0x7f.0.0.1` are all 127.0.0.1. A host whose last label is a number but
/// which is no valid IPv4 address (`1.2.3.4.5`, `256.0.0.1`) is refused
/// rather than handed to a resolver that might read it differently. IPv6
/// literals (RFC 4291 §2.2), with or without brackets, may end in a dotted
/// quad and carry a zone (RFC 6874, `%25eth0` in a URL). One trailing dot
/// (the DNS root) is ignored. `localhost` and names under it are loopback
/// without asking DNS (RFC 6761 §6.3).
public enum URLHost: Sendable, Hashable {
    /// A literal address; `zone` is an IPv6 scope (`eth0`), if any.
    case address(HostAddress, zone: String?)
    /// A name: lowercased, without a trailing dot.
    case name(String)

    /// Why a host cannot be used.
    public enum ParseError: Error, Sendable, Hashable {
        /// Empty, a malformed literal, or a name ending in a number that is
        /// no IPv4 address.
        case invalid(String)
    }

    public init(parsing text: String) throws(ParseError) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host.contains(":") {
            var zone: String?
            if let percent = host.firstIndex(of: "%") {
                var scope = host[host.index(after: percent)...]
                if scope.hasPrefix("25") { scope = scope.dropFirst(2) }
                guard !scope.isEmpty else { throw .invalid(text) }
                zone = String(scope)
                host = host[..<percent]
            }
            guard let value = Self.ipv6(host) else { throw .invalid(text) }
            self = .address(.v6(value), zone: zone)
            return
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty, !host.hasSuffix(".") else { throw .invalid(text) }
        switch Self.ipv4(host) {
        case .address(let value): self = .address(.v4(value), zone: nil)
        case .invalid: throw .invalid(text)
        case .notNumeric: self = .name(host.lowercased())
        }
    }

    /// Whether this is `localhost` or a name under it (RFC 6761 §6.3).
    public var isLocalhost: Bool {
        guard case .name(let name) = self else { return false }
        return name == "localhost" || name.hasSuffix(".localhost")
    }

    private enum IPv4Result {
        case address(UInt32)
        case invalid
        case notNumeric
    }

    private static func ipv4(_ host: Substring) -> IPv4Result {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        // The URL Standard's "ends in a number": only then is the host an IPv4 literal.
        guard let last = parts.last, endsInANumber(last) else {
            return parts.contains(where: \.isEmpty) ? .invalid : .notNumeric
        }
        guard parts.count <= 4 else { return .invalid }
        var numbers: [UInt64] = []
        for part in parts {
            guard let value = number(part) else { return .invalid }
            numbers.append(value)
        }
        var address: UInt64 = 0
        for value in numbers.dropLast() {
            guard value <= 255 else { return .invalid }
            address = address << 8 | value
        }
        let remainingBits = UInt64(8 * (5 - numbers.count))
        guard let final = numbers.last, final < (1 << remainingBits) else { return .invalid }
        address = address << remainingBits | final
        return .address(UInt32(truncatingIfNeeded: address))
    }

    /// The URL Standard's test (§3.5 "ends in a number"): decimal digits, or
    /// `0x` and hexadecimal digits, whatever their size.
    private static func endsInANumber(_ part: Substring) -> Bool {
        if part.hasPrefix("0x") || part.hasPrefix("0X") { return part.dropFirst(2).allSatisfy(\.isHexDigit) }
        return !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// One part of an IPv4 literal; `nil` when it is no number or exceeds 32 bits.
    private static func number(_ part: Substring) -> UInt64? {
        var digits = part
        var radix: UInt64 = 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            radix = 16
            // `0x` alone is zero (URL Standard, inet_aton).
            if digits.isEmpty { return 0 }
        } else if digits.count > 1, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for character in digits {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix else { return nil }
            value = value * radix + UInt64(digit)
            guard value <= UInt64(UInt32.max) else { return nil }
        }
        return value
    }

    /// RFC 4291 §2.2 text: eight 16-bit hex groups, one `::` for a run of
    /// zero groups, optionally ending in a dotted quad.
    static func ipv6(_ text: Substring) -> UInt128? {
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: Substring, mayEndInIPv4: Bool) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, mayEndInIPv4, piece.contains(".") {
                    let quad = piece.split(separator: ".", omittingEmptySubsequences: false)
                    guard quad.count == 4 else { return nil }
                    var bytes: [UInt16] = []
                    for byte in quad {
                        guard (1...3).contains(byte.count), byte.allSatisfy({ $0.isASCII && $0.isNumber }),
                              let value = UInt16(byte), value <= 255 else { return nil }
                        bytes.append(value)
                    }
                    result.append(bytes[0] << 8 | bytes[1])
                    result.append(bytes[2] << 8 | bytes[3])
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16),
                      piece.allSatisfy(\.isHexDigit) else { return nil }
                result.append(value)
            }
            return result
        }
        let all: [UInt16]
        if halves.count == 2 {
            guard let head = groups(halves[0], mayEndInIPv4: false), let tail = groups(halves[1], mayEndInIPv4: true),
                  head.count + tail.count <= 7 else { return nil }
            all = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard let full = groups(halves[0], mayEndInIPv4: true), full.count == 8 else { return nil }
            all = full
        }
        return all.reduce(UInt128(0)) { $0 << 16 | UInt128($1) }
    }
}
