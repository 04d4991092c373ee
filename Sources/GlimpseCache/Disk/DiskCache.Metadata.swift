import Foundation

extension DiskCache {
    /// The small record stored beside each entry's data, readable without reading the data
    /// (HTTP validators for revalidation per RFC 9111 §4.3, plus provenance).
    public struct Metadata: Sendable, Equatable {
        /// `ETag` response header (RFC 9110 §8.8.3).
        public var etag: String?
        /// `Last-Modified` response header (RFC 9110 §8.8.2).
        public var lastModified: String?
        /// `Content-Type` response header (RFC 9110 §8.3).
        public var contentType: String?
        /// Where the bytes came from.
        public var originalURL: String?
        /// When the entry was written; set by the cache on `setData`, max age counts from it.
        public var storedDate: Date
        /// The response's freshness (RFC 9111 §4.2), kept by callers that follow
        /// HTTP caching rules; `nil` when they do not.
        public var freshness: HTTPFreshness?

        public init(
            etag: String? = nil,
            lastModified: String? = nil,
            contentType: String? = nil,
            originalURL: String? = nil,
            storedDate: Date = Date(timeIntervalSince1970: 0),
            freshness: HTTPFreshness? = nil
        ) {
            self.etag = etag
            self.lastModified = lastModified
            self.contentType = contentType
            self.originalURL = originalURL
            self.storedDate = storedDate
            self.freshness = freshness
        }
    }
}

extension DiskCache.Metadata {
    private static let absent: UInt32 = .max

    /// Tag of the optional freshness record that may follow the strings.
    private static let freshnessTag: UInt8 = 1

    /// Layout: stored date (Int64 LE, milliseconds since 1970), then four optional strings,
    /// each a UInt32 LE byte length (`0xFFFFFFFF` = absent) followed by UTF-8 bytes, then
    /// optional tagged records: tag 1, freshness (three Int64 LE and one flag byte).
    /// Records written before a tag existed simply end after the strings.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        let milliseconds = Int64((storedDate.timeIntervalSince1970 * 1000).rounded())
        bytes.appendLittleEndian(UInt64(bitPattern: milliseconds))
        for field in [etag, lastModified, contentType, originalURL] {
            if let field {
                let utf8 = Array(field.utf8)
                bytes.appendLittleEndian(UInt32(truncatingIfNeeded: utf8.count))
                bytes.append(contentsOf: utf8)
            } else {
                bytes.appendLittleEndian(Self.absent)
            }
        }
        if let freshness {
            bytes.append(Self.freshnessTag)
            for value in [freshness.responseTime, freshness.initialAge, freshness.lifetime] {
                bytes.appendLittleEndian(UInt64(bitPattern: value))
            }
            bytes.append(freshness.mustRevalidate ? 1 : 0)
        }
        return bytes
    }

    /// Parses `encoded()` output; `nil` for anything malformed (shared tiers store this record too).
    public init?(decoding bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes)
        guard let milliseconds = reader.readUInt64() else { return nil }
        /// `.some(nil)` for an absent field, `nil` for malformed bytes.
        func field() -> String?? {
            guard let length = reader.readUInt32() else { return nil }
            if length == Self.absent { return .some(nil) }
            guard let utf8 = reader.read(count: Int(length)) else { return nil }
            return .some(String(decoding: utf8, as: UTF8.self))
        }
        guard let etag = field(), let lastModified = field(), let contentType = field(),
              let originalURL = field() else { return nil }
        var freshness: HTTPFreshness?
        if !reader.isAtEnd {
            guard reader.read(count: 1)?.first == Self.freshnessTag,
                  let responseTime = reader.readUInt64(), let initialAge = reader.readUInt64(),
                  let lifetime = reader.readUInt64(), let flag = reader.read(count: 1)?.first, flag <= 1,
                  reader.isAtEnd else { return nil }
            freshness = HTTPFreshness(responseTime: Int64(bitPattern: responseTime),
                                      initialAge: Int64(bitPattern: initialAge),
                                      lifetime: Int64(bitPattern: lifetime), mustRevalidate: flag == 1)
        }
        self.init(
            etag: etag, lastModified: lastModified, contentType: contentType, originalURL: originalURL,
            storedDate: Date(timeIntervalSince1970: Double(Int64(bitPattern: milliseconds)) / 1000),
            freshness: freshness
        )
    }
}
