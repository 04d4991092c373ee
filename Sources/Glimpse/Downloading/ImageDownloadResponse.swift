import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parts of an HTTP response a caller needs, as a value
/// (status, header fields, media type, length).
public struct ImageDownloadResponse: Sendable, Hashable {
    /// The final URL, after redirects.
    public var url: URL?
    /// The HTTP status (200 for non-HTTP schemes such as `file`).
    public var statusCode: Int
    /// Header fields, names lowercased (field names are case-insensitive, RFC 9110 §5.1).
    public var headers: [String: String]
    /// The media type without parameters, lowercased (`image/png`).
    public var mimeType: String?
    /// `Content-Length`, when the server sent one.
    public var expectedContentLength: Int64?

    public init(url: URL?, statusCode: Int, headers: [String: String], mimeType: String?, expectedContentLength: Int64?) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.mimeType = mimeType
        self.expectedContentLength = expectedContentLength
    }

    init(_ response: URLResponse) {
        var headers: [String: String] = [:]
        var status = 200
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
        }
        let length = response.expectedContentLength
        self.init(url: response.url, statusCode: status, headers: headers,
                  mimeType: response.mimeType?.lowercased(), expectedContentLength: length >= 0 ? length : nil)
    }

    /// A header field's value, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The entity tag (RFC 9110 §8.8.3), for a later `If-None-Match`.
    public var entityTag: String? { header("ETag") }

    /// `Last-Modified` (RFC 9110 §8.8.2), for a later `If-Modified-Since`.
    public var lastModified: String? { header("Last-Modified") }
}
