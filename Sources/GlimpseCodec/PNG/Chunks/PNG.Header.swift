extension PNG {
    /// The colour type byte of IHDR (PNG §11.2.2, table 11.1).
    public enum ColorType: UInt8, Sendable, Hashable {
        case grayscale = 0
        case rgb = 2
        case indexed = 3
        case grayscaleAlpha = 4
        case rgba = 6

        /// Samples per pixel as stored.
        var channels: Int {
            switch self {
            case .grayscale, .indexed: 1
            case .grayscaleAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        var hasAlpha: Bool { self == .grayscaleAlpha || self == .rgba }

        /// The bit depths PNG §11.2.2 allows for this colour type.
        func allows(bitDepth: Int) -> Bool {
            switch self {
            case .grayscale: [1, 2, 4, 8, 16].contains(bitDepth)
            case .indexed: [1, 2, 4, 8].contains(bitDepth)
            case .rgb, .grayscaleAlpha, .rgba: bitDepth == 8 || bitDepth == 16
            }
        }
    }

    /// The image header, IHDR (PNG §11.2.2), validated.
    struct Header: Sendable, Hashable {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: ColorType
        var interlaced: Bool

        /// Parses and checks the 13 bytes of IHDR.
        init(parsing data: UnsafeRawBufferPointer) throws(ImageDecodingError) {
            guard data.count == 13 else { throw .malformed(.png(.headerLength(data.count))) }
            let width = Int(data.bigEndianUInt32(at: 0))
            let height = Int(data.bigEndianUInt32(at: 4))
            // PNG §11.2.2: both dimensions are 1…2^31-1.
            guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
                throw .malformed(.png(.dimensions(width: width, height: height)))
            }
            guard let colorType = ColorType(rawValue: data[9]) else {
                throw .malformed(.png(.colorType(data[9])))
            }
            let bitDepth = Int(data[8])
            guard colorType.allows(bitDepth: bitDepth) else {
                throw .malformed(.png(.bitDepth(bitDepth, colorType: colorType.rawValue)))
            }
            guard data[10] == 0 else { throw .malformed(.png(.compressionMethod(data[10]))) }
            guard data[11] == 0 else { throw .malformed(.png(.filterMethod(data[11]))) }
            guard data[12] <= 1 else { throw .malformed(.png(.interlaceMethod(data[12]))) }
            self.width = width
            self.height = height
            self.bitDepth = bitDepth
            self.colorType = colorType
            self.interlaced = data[12] == 1
        }

        init(width: Int, height: Int, bitDepth: Int, colorType: ColorType, interlaced: Bool) {
            self.width = width
            self.height = height
            self.bitDepth = bitDepth
            self.colorType = colorType
            self.interlaced = interlaced
        }

        /// Bits per pixel as stored.
        var bitsPerPixel: Int { colorType.channels &* bitDepth }

        /// The byte distance the filters look back (PNG §7.3: at least one byte).
        var filterStride: Int { max(1, bitsPerPixel >> 3) }

        /// Bytes of one scanline of `width` pixels, without the filter byte.
        func rowBytes(width: Int) -> Int { (width &* bitsPerPixel &+ 7) >> 3 }
    }
}

extension UnsafeRawBufferPointer {
    /// A big-endian `UInt32` at `offset`; callers check `offset + 4 <= count`.
    @inline(__always)
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}
