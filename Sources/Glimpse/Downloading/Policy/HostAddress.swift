/// An IP address as the ``AddressPolicy`` compares it: IPv4 (RFC 791) or
/// IPv6 (RFC 4291), as a number.
public enum HostAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    case v6(UInt128)

    /// Parses an address literal in any spelling a URL host or `getaddrinfo`
    /// accepts (see ``URLHost/init(parsing:)``); `nil` for anything else.
    public init?(_ text: String) {
        guard case .address(let address, _)? = try? URLHost(parsing: text) else { return nil }
        self = address
    }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:0:0/96`, RFC 4291
    /// §2.5.5.2) stands for, which a dual-stack socket connects to directly;
    /// every other address unchanged.
    var unmapped: HostAddress {
        if case .v6(let value) = self, value >> 32 == 0xffff { return .v4(UInt32(truncatingIfNeeded: value)) }
        return self
    }

    /// The IPv4 address carried inside an IPv6 one by a transition form that
    /// reaches it: IPv4-mapped (`::ffff:0:0/96`), IPv4-compatible (`::/96`,
    /// RFC 4291 §2.5.5.1, except `::` and `::1`), 6to4 (`2002::/16`, RFC 3056
    /// §2) and NAT64 (`64:ff9b::/96`, RFC 6052 §2.1; `64:ff9b:1::/48`, RFC 8215).
    var embeddedIPv4: UInt32? {
        guard case .v6(let value) = self else { return nil }
        let low = UInt32(truncatingIfNeeded: value)
        if value >> 32 == 0xffff { return low }
        if value >> 32 == 0, value > 1 { return low }
        if value >> 112 == 0x2002 { return UInt32(truncatingIfNeeded: value >> 80) }
        if value >> 32 == 0x0064_ff9b_0000_0000_0000_0000 { return low }
        if value >> 80 == 0x0064_ff9b_0001 { return low }
        return nil
    }

    /// Dotted quad, or RFC 5952 text (lowercase, the longest run of two or
    /// more zero groups as `::`, IPv4-mapped addresses in mixed notation).
    public var description: String {
        switch self {
        case .v4(let value):
            return (0..<4).map { String(value >> (24 - 8 * $0) & 0xff) }.joined(separator: ".")
        case .v6(let value):
            if value >> 32 == 0xffff { return "::ffff:" + HostAddress.v4(UInt32(truncatingIfNeeded: value)).description }
            let groups = (0..<8).map { UInt16(truncatingIfNeeded: value >> (112 - 16 * $0)) }
            var best = (start: -1, length: 1)
            var index = 0
            while index < 8 {
                guard groups[index] == 0 else {
                    index += 1
                    continue
                }
                var end = index
                while end < 8, groups[end] == 0 { end += 1 }
                if end - index > best.length { best = (index, end - index) }
                index = end
            }
            func text(_ range: Range<Int>) -> String {
                range.map { String(groups[$0], radix: 16) }.joined(separator: ":")
            }
            guard best.start >= 0 else { return text(0..<8) }
            return text(0..<best.start) + "::" + text((best.start + best.length)..<8)
        }
    }
}
