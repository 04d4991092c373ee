/// Which hosts and addresses a downloader may connect to: the defence
/// against server-side request forgery for servers that fetch URLs their
/// users supply (OWASP SSRF Prevention Cheat Sheet; imgproxy and imagor deny
/// loopback and link-local by default).
///
/// The downloader checks every URL — the request's and each redirect's —
/// before connecting: the host is read to an address first in every legal
/// spelling (``URLHost``), a name is resolved (`getaddrinfo`, off the
/// cooperative pool) and **every** resolved address must pass, so a name
/// with one private address among public ones is refused.
///
/// The order of the decision:
/// 1. a ``denied`` rule matching the host or any of its addresses refuses;
/// 2. an ``allowed`` host rule naming the host (and port) accepts, whatever
///    the name resolves to — allowing by name trusts the name;
/// 3. otherwise each address must be accepted by an ``allowed`` address or
///    range rule, or by the ``base``: ``Base/any`` accepts all but link-local
///    (and cloud-metadata) addresses, ``Base/public`` only public ones,
///    ``Base/none`` nothing.
///
/// What the policy cannot see: the check and the connection resolve the name
/// separately, and URLSession (libcurl under swift-corelibs-foundation) has no
/// way to be told to connect to the checked address, so a DNS answer that
/// changes between the two (DNS rebinding with a zero TTL) can reach an
/// address the check never saw. Deployments that must close that gap route
/// the downloader through an egress proxy that enforces the same rules, or
/// allow only names they control. Redirect targets are checked the same way,
/// with the same gap.
public struct AddressPolicy: Sendable, Hashable {
    /// What addresses not named by a rule may be.
    public enum Base: Sendable, Hashable {
        /// Any address except link-local (`169.254.0.0/16`, `fe80::/10`, where
        /// cloud metadata services live) and the AWS IPv6 metadata address.
        case any
        /// Only addresses on the public internet: none of the IANA
        /// special-purpose ranges (``SpecialUse``), nor the IPv4-mapped,
        /// IPv4-compatible, 6to4 or NAT64 forms of them.
        case `public`
        /// Nothing but what ``allowed`` names.
        case none
    }

    /// A host (optionally with a port) or a CIDR range.
    public enum Rule: Sendable, Hashable, CustomStringConvertible {
        /// A name (`images.example.com`, `*.example.com` for names under it)
        /// or an address literal (`127.0.0.1`, `[::1]`), and the port it
        /// applies to (every port when `nil`). An address literal matches the
        /// address however a URL spells it or a name resolves to it.
        case host(String, port: Int? = nil)
        /// Every address in the range, on every port.
        case range(Range)

        /// `HOST`, `HOST:PORT`, `[IPV6]:PORT`, or a range `ADDRESS/LENGTH`;
        /// `nil` when malformed.
        public init?(parsing text: String) {
            if text.contains("/") {
                guard let range = Range(parsing: text) else { return nil }
                self = .range(range)
                return
            }
            var host = Substring(text)
            var port: Int?
            if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
                let rest = host[host.index(after: close)...]
                host = host[...close]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                    port = number
                }
            } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
                guard let number = Int(host[host.index(after: colon)...]) else { return nil }
                port = number
                host = host[..<colon]
            }
            if let port, !(1...65_535).contains(port) { return nil }
            let pattern = host.hasPrefix("*.") ? String(host.dropFirst(2)) : String(host)
            guard (try? URLHost(parsing: pattern)) != nil else { return nil }
            self = .host(String(host), port: port)
        }

        public var description: String {
            switch self {
            case .host(let host, let port?): "\(host):\(port)"
            case .host(let host, nil): host
            case .range(let range): range.description
            }
        }

        /// Whether this rule names the URL's host itself (not its addresses).
        func matches(name host: URLHost, port: Int) -> Bool {
            guard case .host(let pattern, let rulePort) = self, rulePort == nil || rulePort == port,
                  case .name(let name) = host else { return false }
            if pattern.hasPrefix("*.") {
                return name.hasSuffix("." + Self.normalisedName(pattern.dropFirst(2)))
            }
            return name == Self.normalisedName(Substring(pattern))
        }

        /// Whether this rule covers connecting to `address` on `port`.
        func matches(address: HostAddress, port: Int) -> Bool {
            switch self {
            case .range(let range):
                return range.contains(address) || range.contains(address.unmapped)
            case .host(let pattern, let rulePort):
                guard rulePort == nil || rulePort == port,
                      case .address(let literal, _)? = try? URLHost(parsing: pattern) else { return false }
                return literal.unmapped == address.unmapped
            }
        }

        private static func normalisedName(_ text: Substring) -> String {
            (text.hasSuffix(".") ? text.dropLast() : text).lowercased()
        }
    }

    /// Why a connection is refused.
    public enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// A ``denied`` rule names the host.
        case deniedHost(String)
        /// The address, and the special use that puts it out of bounds
        /// (`nil` when a rule denied it or ``Base/none`` left it out).
        case deniedAddress(HostAddress, SpecialUse?)

        /// What ``ImageDownloadError/addressNotAllowed(_:)`` reports.
        public var description: String {
            switch self {
            case .deniedHost(let host): host
            case .deniedAddress(let address, _): address.description
            }
        }
    }

    public var base: Base
    /// Exceptions that let hosts, addresses or ranges through.
    public var allowed: [Rule]
    /// Hosts, addresses or ranges refused whatever else says.
    public var denied: [Rule]

    public init(_ base: Base, allowing allowed: [Rule] = [], denying denied: [Rule] = []) {
        self.base = base
        self.allowed = allowed
        self.denied = denied
    }

    /// Every address but link-local ones: the default of a downloader.
    public static let any = AddressPolicy(.any)
    /// Public internet addresses only: for URLs a server's users supply.
    public static let `public` = AddressPolicy(.public)

    /// Whether the decision about `host` needs its resolved addresses: only
    /// for a name that no rule decides by name. `localhost` never does.
    func needsAddresses(of host: URLHost, port: Int) -> Bool {
        guard case .name = host, !host.isLocalhost else { return false }
        return !denied.contains { $0.matches(name: host, port: port) }
            && !allowed.contains { $0.matches(name: host, port: port) }
    }

    /// The addresses a host stands for without asking DNS: its literal, or
    /// the loopback addresses for `localhost`; `nil` for other names.
    static func knownAddresses(of host: URLHost) -> [HostAddress]? {
        switch host {
        case .address(let address, _): [address]
        case .name where host.isLocalhost: [.v4(0x7f00_0001), .v6(1)]
        case .name: nil
        }
    }

    /// The verdict on connecting to `host` on `port` at `addresses` (what it
    /// resolved to; ignored when a rule decides by name): `nil` to allow.
    public func refusal(host: URLHost, port: Int, addresses: [HostAddress]) -> Refusal? {
        if denied.contains(where: { $0.matches(name: host, port: port) }), case .name(let name) = host {
            return .deniedHost(name)
        }
        let addresses = Self.knownAddresses(of: host) ?? addresses
        if let address = addresses.first(where: { address in denied.contains { $0.matches(address: address, port: port) } }) {
            return .deniedAddress(address, nil)
        }
        if allowed.contains(where: { $0.matches(name: host, port: port) }) { return nil }
        guard case .name(let name) = host, !host.isLocalhost, addresses.isEmpty else {
            for address in addresses where !allowed.contains(where: { $0.matches(address: address, port: port) }) {
                if let refusal = baseRefusal(of: address) { return refusal }
            }
            return nil
        }
        // A name that resolved to nothing cannot be checked, so it is not allowed.
        return .deniedHost(name)
    }

    private func baseRefusal(of address: HostAddress) -> Refusal? {
        switch base {
        case .none:
            return .deniedAddress(address, nil)
        case .public:
            return Self.specialUse(of: address).map { .deniedAddress(address, $0) }
        case .any:
            guard let use = Self.specialUse(of: address), use == .linkLocal || use == .cloudMetadata else { return nil }
            return .deniedAddress(address, use)
        }
    }
}
