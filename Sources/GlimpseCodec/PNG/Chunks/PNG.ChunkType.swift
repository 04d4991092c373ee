extension PNG {
    /// A chunk's four-letter type code (PNG §5.3), held as its big-endian value.
    public struct ChunkType: Hashable, Sendable, CustomStringConvertible {
        /// The four type bytes, big-endian (`IHDR` is 0x4948_4452).
        public let value: UInt32

        init(_ value: UInt32) { self.value = value }

        init(_ name: StaticString) {
            var v: UInt32 = 0
            name.withUTF8Buffer { for byte in $0 { v = v << 8 | UInt32(byte) } }
            value = v
        }

        /// Bit 5 of the first byte clear (upper-case letter): the chunk is critical
        /// and a decoder that does not know it must fail (PNG §5.4).
        var isCritical: Bool { value & 0x2000_0000 == 0 }

        /// Every byte must be an ASCII letter (PNG §5.3).
        var isValid: Bool {
            for shift in stride(from: 24, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift)) & ~0x20
                guard byte >= 0x41, byte <= 0x5A else { return false }
            }
            return true
        }

        var bytes: [UInt8] {
            [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
             UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }

        /// The four letters, e.g. `tEXt`.
        public var description: String { String(decoding: bytes, as: UTF8.self) }

        static let IHDR = ChunkType("IHDR")
        static let PLTE = ChunkType("PLTE")
        static let IDAT = ChunkType("IDAT")
        static let IEND = ChunkType("IEND")
        static let tRNS = ChunkType("tRNS")
        static let gAMA = ChunkType("gAMA")
        static let cHRM = ChunkType("cHRM")
        static let sRGB = ChunkType("sRGB")
        static let iCCP = ChunkType("iCCP")
        static let cICP = ChunkType("cICP")
        static let pHYs = ChunkType("pHYs")
        static let eXIf = ChunkType("eXIf")
        static let acTL = ChunkType("acTL")
        static let fcTL = ChunkType("fcTL")
        static let fdAT = ChunkType("fdAT")
    }
}
