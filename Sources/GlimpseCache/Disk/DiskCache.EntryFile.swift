import Foundation

extension DiskCache {
    /// The on-disk layout of one entry: a fixed header, the key, the metadata record, the data.
    ///
    /// ```
    /// offset size
    ///      0    4  magic "GLMC"
    ///      4    2  version (2), little endian like every field
    ///      6    2  header length (48)
    ///      8    4  key length
    ///     12    4  metadata length
    ///     16    8  data length
    ///     24    8  checksum of key + metadata
    ///     32    8  checksum of data
    ///     40    8  checksum of bytes 0..<40
    /// ```
    /// The file length must equal header + key + metadata + data exactly, so truncation and
    /// trailing garbage are detected before any checksum runs. The key is stored so a file
    /// can never answer for a different key, however unlikely a SHA-256 collision.
    ///
    /// A *batch file* holds several such records back to back and has one name (hard link) per
    /// record (`DiskCache+Batches.swift`): its records must tile it exactly, and a read looks for
    /// the record of its key.
    enum EntryFile {
        static let magic: [UInt8] = Array("GLMC".utf8)
        /// 2 since the checksum became page-weighted (`Checksum64`); files of another version
        /// are foreign: a miss, removed like a corrupt entry.
        static let version: UInt16 = 2
        static let headerLength = 48
        /// Keys and metadata are small by nature; a larger claimed length means a foreign file.
        static let maximumPrefixField = 1 << 20

        struct Header {
            var keyLength: Int
            var metadataLength: Int
            var dataLength: Int
            var prefixChecksum: UInt64
            var dataChecksum: UInt64

            var fileLength: Int { headerLength + keyLength + metadataLength + dataLength }
        }

        enum ReadResult {
            /// The file is absent.
            case missing
            /// The file exists but is not a valid entry (torn, truncated, foreign).
            case corrupt(inode: UInt64?)
            /// A valid entry for another key (SHA-256 collision): a miss, not corruption.
            case otherKey
            /// `fileSize`: the record's length, the whole file's but in a batch file.
            case entry(metadata: Metadata, data: Data?, fileSize: Int, modified: Int64)
        }

        /// Appends the 48 header bytes for an entry of `key`, `metadata` and `data`.
        static func appendHeader(to bytes: inout [UInt8], key: [UInt8], metadata: [UInt8], data: UnsafeRawBufferPointer) {
            let start = bytes.count
            bytes.append(contentsOf: magic)
            bytes.appendLittleEndian(version)
            bytes.appendLittleEndian(UInt16(headerLength))
            bytes.appendLittleEndian(UInt32(truncatingIfNeeded: key.count))
            bytes.appendLittleEndian(UInt32(truncatingIfNeeded: metadata.count))
            bytes.appendLittleEndian(UInt64(truncatingIfNeeded: data.count))
            bytes.appendLittleEndian((key + metadata).withUnsafeBytes { Checksum64.compute($0) })
            bytes.appendLittleEndian(Checksum64.compute(data))
            let headerChecksum = bytes.withUnsafeBytes { Checksum64.compute(UnsafeRawBufferPointer(rebasing: $0[start...])) }
            bytes.appendLittleEndian(headerChecksum)
        }

        static func parseHeader(_ bytes: UnsafeRawBufferPointer) -> Header? {
            var reader = ByteReader(bytes)
            guard let magicBytes = reader.read(count: 4), magicBytes.elementsEqual(magic),
                  reader.readUInt16() == version, reader.readUInt16() == UInt16(headerLength),
                  let keyLength = reader.readUInt32(), let metadataLength = reader.readUInt32(),
                  let dataLength = reader.readUInt64(),
                  let prefixChecksum = reader.readUInt64(), let dataChecksum = reader.readUInt64(),
                  let headerChecksum = reader.readUInt64()
            else { return nil }
            let checked = Checksum64.compute(UnsafeRawBufferPointer(rebasing: bytes.prefix(40)))
            guard headerChecksum == checked,
                  Int(keyLength) <= maximumPrefixField, Int(metadataLength) <= maximumPrefixField,
                  dataLength <= UInt64(Int.max / 2)
            else { return nil }
            return Header(
                keyLength: Int(keyLength), metadataLength: Int(metadataLength), dataLength: Int(dataLength),
                prefixChecksum: prefixChecksum, dataChecksum: dataChecksum
            )
        }

        /// Reads and validates the entry at `path`; reads the data only when `includeData`.
        ///
        /// A data read is one `pread` of the whole file into a buffer that the returned `Data`
        /// then owns (open, fstat, pread, close: the same system calls as reading a plain file).
        /// A metadata read fetches the first page and more only for an unusually long prefix.
        static func read(path: String, key: String.UTF8View, includeData: Bool) -> ReadResult {
            // O_NOATIME: recency is the cache's own bookkeeping, so reads need not dirty the
            // inode; the kernel refuses it for files we do not own, then a plain open is used.
            var fd = POSIXFile.open(path, flags: [.readOnly, .noAccessTime])
            if fd < 0 && POSIXFile.lastError == POSIXFile.ErrorCode.notPermitted { fd = POSIXFile.open(path, flags: .readOnly) }
            guard fd >= 0 else {
                return POSIXFile.lastError == POSIXFile.ErrorCode.notFound ? .missing : .corrupt(inode: nil)
            }
            defer { POSIXFile.close(fd) }
            guard let status = POSIXFile.status(fd) else { return .corrupt(inode: nil) }
            let corrupt = ReadResult.corrupt(inode: status.inode)
            guard status.size >= headerLength, status.size <= Int.max / 2 else { return corrupt }

            let length = includeData ? status.size : min(status.size, firstReadLength)
            // Uninitialised memory: zero-filling it would cost as much as the checksum. Safe:
            // only the `length` bytes readFully wrote are ever read, and the buffer is freed on
            // every path that does not hand it to Data.
            guard var buffer = malloc(length) else { return corrupt }
            var bufferLength = length
            var handedOver = false
            defer { if !handedOver { free(buffer) } }
            guard POSIXFile.readFully(fd, into: buffer, count: length, offset: 0) else { return corrupt }

            guard var parsed = parseHeader(UnsafeRawBufferPointer(start: buffer, count: headerLength)),
                  parsed.fileLength <= status.size else { return corrupt }
            // The record's start in the file: 0 but in a batch file.
            var start = 0
            if parsed.fileLength < status.size {
                // A batch file: read it whole. Writers keep them small (`DiskCache.batchByteLimit`);
                // a larger one is not ours.
                guard status.size <= maximumBatchLength else { return corrupt }
                if bufferLength < status.size {
                    guard let larger = realloc(buffer, status.size) else { return corrupt }
                    buffer = larger
                    guard POSIXFile.readFully(fd, into: buffer + bufferLength, count: status.size - bufferLength,
                                              offset: bufferLength) else { return corrupt }
                    bufferLength = status.size
                }
                guard let found = findRecord(UnsafeRawBufferPointer(start: buffer, count: status.size), key: key) else {
                    return corrupt
                }
                guard let (offset, header) = found else { return .otherKey }
                start = offset
                parsed = header
            }
            let prefixEnd = headerLength + parsed.keyLength + parsed.metadataLength
            if start + prefixEnd > bufferLength {
                // Only for metadata reads of a single record with a prefix longer than the first read.
                guard let larger = realloc(buffer, prefixEnd) else { return corrupt }
                buffer = larger
                guard POSIXFile.readFully(fd, into: buffer + bufferLength, count: prefixEnd - bufferLength,
                                          offset: bufferLength) else { return corrupt }
                bufferLength = prefixEnd
            }
            let record = buffer + start
            let prefix = UnsafeRawBufferPointer(start: record + headerLength, count: prefixEnd - headerLength)
            guard Checksum64.compute(prefix) == parsed.prefixChecksum,
                  let metadata = Metadata(decoding: UnsafeRawBufferPointer(rebasing: prefix[parsed.keyLength...]))
            else { return corrupt }
            guard equal(UnsafeRawBufferPointer(rebasing: prefix[..<parsed.keyLength]), key) else { return .otherKey }

            guard includeData else {
                return .entry(metadata: metadata, data: nil, fileSize: parsed.fileLength, modified: status.modified)
            }
            let dataBytes = UnsafeRawBufferPointer(start: record + prefixEnd, count: parsed.dataLength)
            guard Checksum64.compute(dataBytes) == parsed.dataChecksum else { return corrupt }
            handedOver = true
            let base = buffer
            let data = parsed.dataLength == 0
                ? Data()
                : Data(bytesNoCopy: record + prefixEnd, count: parsed.dataLength, deallocator: .custom { _, _ in free(base) })
            if parsed.dataLength == 0 { free(base) }
            return .entry(metadata: metadata, data: data, fileSize: parsed.fileLength, modified: status.modified)
        }

        /// The offset and header of `key`'s record in a batch file: `nil` when a header is bad or
        /// the records do not tile the file exactly (corrupt), `.some(nil)` when they do but
        /// none is `key`'s. Only headers and keys are checked here; the caller checks the
        /// record it uses.
        static func findRecord(_ file: UnsafeRawBufferPointer, key: String.UTF8View) -> (Int, Header)?? {
            var offset = 0
            var found: (Int, Header)?
            while offset < file.count {
                guard file.count - offset >= headerLength,
                      let header = parseHeader(UnsafeRawBufferPointer(rebasing: file[offset..<(offset + headerLength)])),
                      header.fileLength <= file.count - offset else { return nil }
                let keyStart = offset + headerLength
                if found == nil, equal(UnsafeRawBufferPointer(rebasing: file[keyStart..<(keyStart + header.keyLength)]), key) {
                    found = (offset, header)
                }
                offset += header.fileLength
            }
            return .some(found)
        }

        /// Whether `stored` holds exactly the UTF-8 bytes of `key` (memcmp for native strings).
        static func equal(_ stored: UnsafeRawBufferPointer, _ key: String.UTF8View) -> Bool {
            guard stored.count == key.count else { return false }
            let compared = key.withContiguousStorageIfAvailable { utf8 -> Bool in
                // Safe: both buffers hold `stored.count` bytes (checked above).
                guard let a = stored.baseAddress, let b = utf8.baseAddress else { return true }
                return memcmp(a, b, stored.count) == 0
            }
            return compared ?? stored.elementsEqual(key)
        }

        /// Enough for the header, a URL-sized key and a typical metadata record in one read.
        static let firstReadLength = 4096
        /// The largest batch file a read accepts (writers stay far below).
        static let maximumBatchLength = 1 << 20

        /// Writes a complete entry file at `path` (a fresh temporary name); returns its length,
        /// or `nil` on error.
        /// The file's modification time is set to `metadata.storedDate`, so the directory scan
        /// learns every entry's age from `stat` alone and agrees with an injected clock.
        static func write(path: String, key: [UInt8], metadata: Metadata, data: UnsafeRawBufferPointer, durable: Bool) -> Int? {
            write(path: path, key: key, encodedMetadata: metadata.encoded(), storedDate: metadata.storedDate,
                  data: data, durable: durable)
        }

        /// `write` with the metadata record already encoded (its `storedDate` is `storedDate`).
        static func write(path: String, key: [UInt8], encodedMetadata metadataBytes: [UInt8], storedDate: Date,
                          data: UnsafeRawBufferPointer, durable: Bool) -> Int? {
            let file = contents(key: key, encodedMetadata: metadataBytes, data: data)
            let fd = POSIXFile.open(path, flags: [.writeOnly, .create, .exclusive], mode: 0o644)
            guard fd >= 0 else { return nil }
            let written = write(file, to: fd, storedDate: storedDate, durable: durable)
            POSIXFile.close(fd)
            return written ? file.count : nil
        }

        /// The bytes of a complete entry file: header, key, metadata record, data.
        static func contents(key: [UInt8], encodedMetadata metadataBytes: [UInt8], data: UnsafeRawBufferPointer) -> [UInt8] {
            // One contiguous write: the page cache then keeps the file in large folios, which
            // later reads copy out measurably faster than a short write followed by the data.
            var file: [UInt8] = []
            file.reserveCapacity(headerLength + key.count + metadataBytes.count + data.count)
            appendHeader(to: &file, key: key, metadata: metadataBytes, data: data)
            file.append(contentsOf: key)
            file.append(contentsOf: metadataBytes)
            file.append(contentsOf: data)
            return file
        }

        /// Writes `file` to the new, empty file `fd`, sets its modification time to
        /// `storedDate` (`nil`: keeps the kernel's stamp, when that already is the write time)
        /// and, when `durable`, syncs it; `false` on error (with `errno`).
        static func write(_ file: [UInt8], to fd: Int32, storedDate: Date?, durable: Bool) -> Bool {
            let written = file.withUnsafeBytes { POSIXFile.writeFully(fd, [$0]) }
            if let storedDate {
                POSIXFile.setModificationTime(fd, secondsSince1970: storedDate.timeIntervalSince1970)
            }
            return written && (!durable || POSIXFile.synchronize(fd))
        }
    }
}
