extension DiskCache {
    /// The access journal: one line per read hit, `<64 hex digits> <nanoseconds since 1970>\n`,
    /// appended in batches with `O_APPEND` so processes sharing the directory interleave whole
    /// writes. Writes need no line: the entry file's modification time is its write time.
    ///
    /// Lines that do not parse (a torn tail after a crash) are skipped. The journal is
    /// rewritten compactly (temporary file + rename) when it grows well past the entry count.
    enum Journal {
        static let fileName = ".journal"
        static let lineLength = 64 + 1 + 19 + 1

        static func appendLine(name: String, time: Int64, to buffer: inout [UInt8]) {
            buffer.append(contentsOf: name.utf8)
            buffer.append(UInt8(ascii: " "))
            // 19 zero-padded decimal digits: Int64.max has 19, so every time fits.
            var remaining = UInt64(max(time, 0))
            let start = buffer.count
            buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 19))
            var index = start + 18
            while remaining > 0 && index >= start {
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                index -= 1
            }
            buffer.append(UInt8(ascii: "\n"))
        }

        /// Appends `bytes` to the journal in `directory`; failures only cost recency.
        static func append(_ bytes: [UInt8], directory: String) {
            guard !bytes.isEmpty else { return }
            let fd = POSIXFile.open(directory + "/" + fileName, flags: [.writeOnly, .create, .append])
            guard fd >= 0 else { return }
            _ = bytes.withUnsafeBytes { POSIXFile.writeFully(fd, [$0]) }
            POSIXFile.close(fd)
        }

        /// The latest access time per entry name, and the number of valid lines.
        static func read(directory: String) -> (lastUsed: [String: Int64], lines: Int) {
            let fd = POSIXFile.open(directory + "/" + fileName, flags: .readOnly)
            guard fd >= 0 else { return ([:], 0) }
            defer { POSIXFile.close(fd) }
            guard let status = POSIXFile.status(fd), status.size > 0, status.size < 1 << 30 else { return ([:], 0) }
            var bytes = [UInt8](repeating: 0, count: status.size)
            let complete = bytes.withUnsafeMutableBytes { buffer in
                // Safe: the buffer holds status.size (> 0) bytes.
                buffer.baseAddress.map { POSIXFile.readFully(fd, into: $0, count: status.size, offset: 0) } ?? false
            }
            guard complete else { return ([:], 0) }
            var lastUsed: [String: Int64] = [:]
            var lines = 0
            var start = 0
            while start + lineLength <= bytes.count {
                let line = bytes[start..<start + lineLength]
                start += lineLength
                guard line.last == UInt8(ascii: "\n"), line[line.startIndex + 64] == UInt8(ascii: " "),
                      let name = entryName(line.prefix(64)),
                      let time = Int64(String(decoding: line.dropFirst(65).dropLast(), as: UTF8.self))
                else {
                    // A torn or foreign line: resynchronise at the next newline.
                    if let newline = bytes[(start - lineLength)...].firstIndex(of: UInt8(ascii: "\n")) {
                        start = newline + 1
                    }
                    continue
                }
                lines += 1
                if time > lastUsed[name, default: .min] { lastUsed[name] = time }
            }
            return (lastUsed, lines)
        }

        /// Replaces the journal with one line per entry that has a recorded access.
        static func rewrite(_ entries: [(name: String, lastUsed: Int64)], directory: String, temporaryName: String) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entries.count * lineLength)
            for entry in entries { appendLine(name: entry.name, time: entry.lastUsed, to: &bytes) }
            let temporary = directory + "/" + temporaryName
            let fd = POSIXFile.open(temporary, flags: [.writeOnly, .create, .exclusive])
            guard fd >= 0 else { return }
            let written = bytes.withUnsafeBytes { POSIXFile.writeFully(fd, [$0]) }
            POSIXFile.close(fd)
            if !(written && POSIXFile.rename(temporary, directory + "/" + fileName)) {
                POSIXFile.unlink(temporary)
            }
        }

        /// `bytes` as an entry name when they are 64 lowercase hexadecimal digits.
        static func entryName<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
            guard bytes.count == 64, bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
