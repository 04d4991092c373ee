import Foundation
import LoopbackHTTPServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A real nginx serving a temporary directory on 127.0.0.1, for what the
/// loopback server only imitates: its `ETag`, `Accept-Ranges` and `If-Range`
/// handling (RFC 9110 §13.1.5, §14). `nil` when nginx is not installed
/// (`.ci/run` installs it). In TestSupport, for the
/// URLSession downloader's tests and the AsyncHTTPClient loader's alike.
public final class NginxOrigin {
    public let root: URL
    public let port: Int
    /// Whether it speaks TLS (with a self-signed certificate for 127.0.0.1: ``init(rate:tls:directives:)``).
    public let isTLS: Bool
    private let process: Process

    /// Starts nginx; `rate` limits each response (nginx's `limit_rate`), so a
    /// transfer lasts long enough to be cut by the client.
    /// The nginx executable, when Debian's `nginx` package is installed.
    public static let binary: String? = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)

    ///
    /// `tls`: listen with TLS, on a certificate for `127.0.0.1` made here by `openssl`
    /// (`nil` when it cannot be made); a client must be told not to verify it.
    /// `directives` go into the `server` block as they are (a `location` that redirects).
    public init?(rate: String = "0", tls: Bool = false, directives: String = "") throws {
        guard let binary = Self.binary else { return nil }
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-nginx-\(UUID().uuidString)")
        root = prefix.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        guard let port = Self.freePort() else { return nil }
        self.port = port
        isTLS = tls
        var listen = "listen 127.0.0.1:\(port);"
        if tls {
            let certificate = prefix.appendingPathComponent("cert.pem").path, key = prefix.appendingPathComponent("key.pem").path
            let made = ReferenceDecoder.run("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                                             "-keyout", key, "-out", certificate, "-days", "1",
                                                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
            guard made?.status == 0 else { return nil }
            listen = "listen 127.0.0.1:\(port) ssl; ssl_certificate \(certificate); ssl_certificate_key \(key);"
        }
        let conf = """
        daemon off;
        master_process off;
        worker_processes 1;
        error_log \(prefix.path)/error.log;
        pid \(prefix.path)/nginx.pid;
        events { worker_connections 64; }
        http {
            access_log off;
            client_body_temp_path \(prefix.path)/tmp;
            proxy_temp_path \(prefix.path)/tmp;
            fastcgi_temp_path \(prefix.path)/tmp;
            uwsgi_temp_path \(prefix.path)/tmp;
            scgi_temp_path \(prefix.path)/tmp;
            types { image/png png; }
            server {
                \(listen)
                root \(root.path);
                limit_rate \(rate);
                \(directives)
            }
        }
        """
        let confURL = prefix.appendingPathComponent("nginx.conf")
        try conf.write(to: confURL, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-p", prefix.path, "-c", confURL.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard Self.waitForListener(port: port) else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
    }

    public func url(_ name: String) -> URL { URL(string: "\(isTLS ? "https" : "http")://127.0.0.1:\(port)/\(name)")! }

    public func stop() {
        // SIGKILL: a child of the test process inherits the spawning thread's
        // signal mask, in which SIGTERM is blocked, and nginx without a master
        // process never unblocks it, so `terminate()` would wait forever.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }

    /// An ephemeral port that was free a moment ago.
    private static func freePort() -> Int? {
        let fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private static func waitForListener(port: Int) -> Bool {
        for _ in 0..<200 {
            let fd = socket(AF_INET, streamSocketType, 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(fd)
            if connected { return true }
            usleep(10_000)
        }
        return false
    }
}
