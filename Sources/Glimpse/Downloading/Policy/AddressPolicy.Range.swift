extension AddressPolicy {
    /// A CIDR block (RFC 4632 §3.1; RFC 4291 §2.3): `10.0.0.0/8`, `fc00::/7`.
    /// An IPv4 range never contains an IPv6 address nor the reverse; the
    /// policy itself looks through IPv4-mapped addresses.
    public struct Range: Sendable, Hashable, CustomStringConvertible {
        public let address: HostAddress
        public let prefixLength: Int

        /// `nil` when the prefix length does not fit the family; host bits
        /// below the prefix are cleared.
        public init?(_ address: HostAddress, prefixLength: Int) {
            switch address {
            case .v4(let value):
                guard (0...32).contains(prefixLength) else { return nil }
                self.address = .v4(prefixLength == 0 ? 0 : value & ~UInt32(0) << UInt32(32 - prefixLength))
            case .v6(let value):
                guard (0...128).contains(prefixLength) else { return nil }
                self.address = .v6(prefixLength == 0 ? 0 : value & ~UInt128(0) << UInt128(128 - prefixLength))
            }
            self.prefixLength = prefixLength
        }

        /// `ADDRESS/LENGTH`, or a single address (a /32 or /128).
        public init?(parsing text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = HostAddress(String(parts[0])) else { return nil }
            let full = if case .v4 = address { 32 } else { 128 }
            if parts.count == 1 {
                self.init(address, prefixLength: full)
                return
            }
            guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(parts[1]) else { return nil }
            self.init(address, prefixLength: length)
        }

        /// A literal table entry; `nil` only for a malformed literal.
        init?(_ text: String) { self.init(parsing: text) }

        public func contains(_ candidate: HostAddress) -> Bool {
            switch (address, candidate) {
            case (.v4(let base), .v4(let value)):
                prefixLength == 0 || value & ~UInt32(0) << UInt32(32 - prefixLength) == base
            case (.v6(let base), .v6(let value)):
                prefixLength == 0 || value & ~UInt128(0) << UInt128(128 - prefixLength) == base
            default:
                false
            }
        }

        public var description: String { "\(address)/\(prefixLength)" }
    }

    /// Why an address is not on the public internet (the IANA IPv4 and IPv6
    /// Special-Purpose Address Registries, RFC 6890).
    public enum SpecialUse: String, Sendable, Hashable, CaseIterable {
        case unspecified, loopback, linkLocal, cloudMetadata, privateUse, sharedAddressSpace, multicast,
             reserved, documentation, benchmarking
    }

    /// The IPv4 special-purpose ranges, most specific first.
    static let specialIPv4: [(Range, SpecialUse)] = table([
        ("0.0.0.0/8", .unspecified), ("10.0.0.0/8", .privateUse), ("100.64.0.0/10", .sharedAddressSpace),
        ("127.0.0.0/8", .loopback), ("169.254.0.0/16", .linkLocal), ("172.16.0.0/12", .privateUse),
        ("192.0.0.0/24", .reserved), ("192.0.2.0/24", .documentation), ("192.88.99.0/24", .reserved),
        ("192.168.0.0/16", .privateUse), ("198.18.0.0/15", .benchmarking), ("198.51.100.0/24", .documentation),
        ("203.0.113.0/24", .documentation), ("224.0.0.0/4", .multicast), ("240.0.0.0/4", .reserved),
    ])

    /// The IPv6 special-purpose ranges, most specific first. Addresses outside
    /// global unicast (`2000::/3`) that no entry names count as reserved.
    static let specialIPv6: [(Range, SpecialUse)] = table([
        ("::/128", .unspecified), ("::1/128", .loopback), ("fd00:ec2::254/128", .cloudMetadata),
        ("fe80::/10", .linkLocal), ("fc00::/7", .privateUse), ("fec0::/10", .reserved), ("ff00::/8", .multicast),
        ("2001:db8::/32", .documentation), ("3fff::/20", .documentation), ("2001:2::/48", .benchmarking),
        ("2001::/23", .reserved), ("100::/64", .reserved), ("5f00::/16", .reserved),
    ])

    private static let globalUnicast = Range(.v6(UInt128(0x2000) << 112), prefixLength: 3)

    private static func table(_ entries: [(String, SpecialUse)]) -> [(Range, SpecialUse)] {
        entries.compactMap { text, use in Range(text).map { ($0, use) } }
    }

    /// The special use of an address, looking through the IPv6 forms that
    /// carry an IPv4 address; `nil` for a public address.
    static func specialUse(of address: HostAddress) -> SpecialUse? {
        switch address {
        case .v4(let value):
            return specialIPv4.first { $0.0.contains(.v4(value)) }?.1
        case .v6:
            if let embedded = address.embeddedIPv4, let use = specialUse(of: .v4(embedded)) { return use }
            if let use = specialIPv6.first(where: { $0.0.contains(address) })?.1 { return use }
            // Mapped, compatible and NAT64 forms of public IPv4 addresses reach them.
            if address.embeddedIPv4 != nil { return nil }
            return globalUnicast?.contains(address) == true ? nil : .reserved
        }
    }
}
