extension RedisClient.Configuration {
    /// Parses `redis://[[user]:password@]HOST[:PORT][/DB]` (the IANA `redis` scheme,
    /// https://www.iana.org/assignments/uri-schemes/prov/redis): user and password
    /// percent-decoded, an IPv6 host in brackets, port 6379 and database 0 by default.
    /// `nil` for anything else (another scheme, a bad port or database, a query).
    public init?(url: String) {
        let prefix = "redis://"
        guard url.lowercased().hasPrefix(prefix) else { return nil }
        var rest = Substring(url.dropFirst(prefix.count))
        guard !rest.contains("?"), !rest.contains("#") else { return nil }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty {
                guard let index = Int(path), index >= 0 else { return nil }
                database = index
            }
            rest = rest[..<slash]
        }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let user = credentials[..<colon]
                guard let decodedPassword = Self.percentDecoded(credentials[credentials.index(after: colon)...]) else { return nil }
                password = decodedPassword
                if !user.isEmpty {
                    guard let decodedUser = Self.percentDecoded(user) else { return nil }
                    username = decodedUser
                }
            } else {
                // `redis://secret@host` is a password alone, as redis-cli reads it.
                guard let decodedPassword = Self.percentDecoded(credentials) else { return nil }
                password = decodedPassword
            }
        }
        var host = rest
        var port = 6379
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
        self.init(host: String(host), port: port, username: username, password: password, database: database)
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
