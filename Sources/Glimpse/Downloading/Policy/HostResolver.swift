#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves host names for the ``AddressPolicy`` check. Blocking: the
/// downloader calls it on its own dispatch queue, never on the cooperative pool.
public struct HostResolver: Sendable {
    /// Returns every address `name` resolves to (empty when it resolves to none).
    public var resolve: @Sendable (String) throws(ImageDownloadError) -> [HostAddress]

    public init(resolve: @escaping @Sendable (String) throws(ImageDownloadError) -> [HostAddress]) {
        self.resolve = resolve
    }

    /// The system resolver: `getaddrinfo` (POSIX.1-2017), IPv4 and IPv6, for
    /// stream sockets — what libcurl asks for the connection.
    public static let system = HostResolver { name throws(ImageDownloadError) in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0 else {
            throw .transport(code: -1003, message: "cannot resolve host \(name)")
        }
        defer { freeaddrinfo(list) }
        var addresses: [HostAddress] = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch Int32(current.pointee.ai_family) {
                case AF_INET:
                    socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        addresses.append(.v4(UInt32(bigEndian: pointer.pointee.sin_addr.s_addr)))
                    }
                case AF_INET6:
                    socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        let value = withUnsafeBytes(of: pointer.pointee.sin6_addr) { bytes in
                            bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
                        }
                        addresses.append(.v6(value))
                    }
                default:
                    break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
