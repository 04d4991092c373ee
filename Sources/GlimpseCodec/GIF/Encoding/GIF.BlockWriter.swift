extension GIF {
    /// Appends GIF89a blocks to a byte array (GIF89a §17–§27).
    struct BlockWriter {
        private(set) var bytes: [UInt8] = []

        private mutating func le16(_ value: Int) {
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }

        /// Signature and a Logical Screen Descriptor without a global colour table (§17, §18).
        mutating func header(width: Int, height: Int) {
            bytes += Array("GIF89a".utf8)
            le16(width)
            le16(height)
            bytes += [0x00, 0x00, 0x00]
        }

        /// The NETSCAPE2.0 application extension with the loop field (0 = forever).
        mutating func loopExtension(_ field: Int) {
            bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            le16(field)
            bytes.append(0x00)
        }

        /// A Graphic Control Extension (§23).
        mutating func graphicControl(_ control: GraphicControl) {
            let transparent = control.transparentIndex
            bytes += [0x21, 0xF9, 0x04, control.disposal.rawValue << 2 | (transparent != nil ? 1 : 0)]
            le16(control.delayCentiseconds)
            bytes += [UInt8(truncatingIfNeeded: transparent ?? 0), 0x00]
        }

        /// An Image Descriptor with a local colour table and the LZW data (§20–§22).
        mutating func image(_ rect: Rect, palette: [UInt32], indices: [UInt8]) {
            var sizeBits = 1
            while 1 << sizeBits < palette.count { sizeBits += 1 }
            bytes.append(0x2C)
            le16(rect.x); le16(rect.y); le16(rect.width); le16(rect.height)
            bytes.append(0x80 | UInt8(sizeBits - 1))
            for i in 0..<(1 << sizeBits) {
                let color = i < palette.count ? palette[i] : 0
                bytes += [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)]
            }
            let minimumCodeSize = max(2, sizeBits)
            bytes.append(UInt8(minimumCodeSize))
            let data = LZWEncoder.encode(indices, minimumCodeSize: minimumCodeSize)
            var offset = 0
            while offset < data.count {
                let count = min(255, data.count - offset)
                bytes.append(UInt8(count))
                bytes += data[offset..<(offset + count)]
                offset += count
            }
            bytes.append(0x00)
        }

        /// The trailer (§27).
        mutating func trailer() {
            bytes.append(0x3B)
        }
    }
}
