extension PNG {
    /// Writes PNG (PNG Third Edition) and APNG files.
    ///
    /// By default the smallest lossless layout is chosen (PNG §12.6): grey when
    /// every pixel is grey, a palette of 1, 2, 4 or 8 bits with tRNS when there
    /// are at most 256 colours, RGB when everything is opaque, RGBA otherwise;
    /// RGBA16 input is written at 16 bits. Each row gets the filter whose output
    /// has the smallest sum of absolute values (PNG §12.8). The ICC profile,
    /// cICP code points, EXIF orientation, gamma, chromaticities, sRGB intent and density of the
    /// image's metadata are written back.
    public struct Encoder: Sendable {
        /// The colour type to write.
        public enum ColorMode: Sendable, Hashable {
            /// The smallest lossless layout.
            case automatic
            case rgba, rgb, grayscale, grayscaleAlpha
            /// A palette; fails when the image has more than 256 colours or is 16-bit.
            case indexed
        }

        /// How rows are filtered before compression (PNG §7.3).
        public enum Filtering: Sendable, Hashable {
            /// Per row, the filter with the minimum sum of absolute differences.
            case adaptive
            case none, sub, up, average, paeth

            var fixedType: UInt8? {
                switch self {
                case .adaptive: nil
                case .none: 0
                case .sub: 1
                case .up: 2
                case .average: 3
                case .paeth: 4
                }
            }
        }

        public struct Options: Sendable, Hashable {
            public var colorMode: ColorMode
            /// zlib compression level, 0 (store) … 9 (smallest).
            public var compressionLevel: Int
            public var filtering: Filtering
            /// Write Adam7-interlaced image data (PNG §8.2).
            public var interlaced: Bool
            /// Write the image's metadata chunks.
            public var writesMetadata: Bool

            public init(colorMode: ColorMode = .automatic, compressionLevel: Int = 6, filtering: Filtering = .adaptive,
                        interlaced: Bool = false, writesMetadata: Bool = true) {
                self.colorMode = colorMode
                self.compressionLevel = compressionLevel
                self.filtering = filtering
                self.interlaced = interlaced
                self.writesMetadata = writesMetadata
            }
        }

        /// Why an image cannot be written as asked.
        public enum EncodingError: Error, Sendable, Hashable {
            /// The requested colour mode would lose information (more than 256
            /// colours for a palette, colour for grey, alpha for RGB…).
            case colorModeLosesInformation
            /// No pixels, or frames of different sizes or formats.
            case invalidImage(String)
        }

        public var options: Options

        public init(options: Options = Options()) {
            self.options = options
        }

        /// Encodes the first frame of `image` as a still PNG.
        public func encode(_ image: Image) throws(EncodingError) -> [UInt8] {
            try encode(image.pixels, metadata: image.metadata)
        }

        /// Encodes `pixels` as a still PNG.
        public func encode(_ pixels: PixelBuffer, metadata: ImageMetadata = ImageMetadata()) throws(EncodingError) -> [UInt8] {
            guard pixels.width > 0, pixels.height > 0 else { throw .invalidImage("empty image") }
            let layout = try layout(for: [pixels])
            var writer = begin(width: pixels.width, height: pixels.height, layout: layout, metadata: metadata)
            let data = ScanlineEncoder(layout: layout, interlaced: options.interlaced, filtering: options.filtering)
                .scanlines(of: pixels, x: 0, y: 0, width: pixels.width, height: pixels.height)
            writeIDAT(Deflate.compress(data, level: options.compressionLevel), into: &writer)
            writer.write(.IEND, [])
            return writer.bytes
        }

        func layout(for buffers: [PixelBuffer]) throws(EncodingError) -> Layout {
            let wide = buffers.first?.format == .rgba16
            guard let layout = Layout(mode: options.colorMode, analysis: Layout.Analysis(buffers), wide: wide) else {
                throw .colorModeLosesInformation
            }
            return layout
        }

        /// Signature, IHDR, metadata, PLTE and tRNS.
        func begin(width: Int, height: Int, layout: Layout, metadata: ImageMetadata) -> ChunkWriter {
            var writer = ChunkWriter()
            var ihdr: [UInt8] = []
            ihdr.appendBigEndian(UInt32(width))
            ihdr.appendBigEndian(UInt32(height))
            ihdr.append(contentsOf: [UInt8(layout.bitDepth), layout.colorType.rawValue, 0, 0, options.interlaced ? 1 : 0])
            writer.write(.IHDR, ihdr)
            if options.writesMetadata { writeMetadata(metadata, into: &writer) }
            if layout.colorType == .indexed {
                let chunks = layout.paletteChunks
                writer.write(.PLTE, chunks.plte)
                if let trns = chunks.trns { writer.write(.tRNS, trns) }
            }
            return writer
        }

        /// IDAT chunks (or fdAT with sequence numbers) of at most 1 MiB each.
        func writeFDAT(_ compressed: [UInt8], into writer: inout ChunkWriter, sequence: inout Int) {
            let piece = 1 << 20
            var start = 0
            repeat {
                let end = min(start + piece, compressed.count)
                var data: [UInt8] = []
                data.reserveCapacity(end - start + 4)
                data.appendBigEndian(UInt32(sequence))
                data.append(contentsOf: compressed[start..<end])
                writer.write(.fdAT, data)
                sequence += 1
                start = end
            } while start < compressed.count
        }

        func writeIDAT(_ compressed: [UInt8], into writer: inout ChunkWriter) {
            let piece = 1 << 20
            var start = 0
            repeat {
                let end = min(start + piece, compressed.count)
                writer.write(.IDAT, compressed[start..<end])
                start = end
            } while start < compressed.count
        }

        private func writeMetadata(_ metadata: ImageMetadata, into writer: inout ChunkWriter) {
            // cICP (Third Edition §11.3.2.6): the pixels written are RGB (matrix 0) whatever the
            // source's matrix was; the range is the samples' own.
            if let cicp = metadata.cicp, cicp.colorPrimaries <= 255, cicp.transferCharacteristics <= 255 {
                writer.write(.cICP, [UInt8(cicp.colorPrimaries), UInt8(cicp.transferCharacteristics), 0, cicp.isFullRange ? 1 : 0])
            }
            if let profile = metadata.iccProfile, !profile.isEmpty {
                var data = Array("ICC profile".utf8) + [0, 0]
                data.append(contentsOf: Deflate.compress(profile, level: 9))
                writer.write(.iCCP, data)
            } else if let intent = metadata.sRGBIntent {
                writer.write(.sRGB, [intent])
            }
            if let gamma = metadata.gamma, gamma > 0, gamma * 100_000 < Double(UInt32.max) {
                var data: [UInt8] = []
                data.appendBigEndian(UInt32((gamma * 100_000).rounded()))
                writer.write(.gAMA, data)
            }
            if let c = metadata.chromaticities {
                var data: [UInt8] = []
                for value in [c.whiteX, c.whiteY, c.redX, c.redY, c.greenX, c.greenY, c.blueX, c.blueY] {
                    data.appendBigEndian(UInt32(max(0, min(Double(Int32.max), (value * 100_000).rounded()))))
                }
                writer.write(.cHRM, data)
            }
            if let density = metadata.density {
                // pHYs knows the metre only (PNG §11.3.5.3).
                let (x, y): (Int, Int) = switch density.unit {
                case .aspectRatio, .perMeter: (density.horizontal, density.vertical)
                case .perCentimeter: (density.horizontal &* 100, density.vertical &* 100)
                case .perInch: ((density.horizontal &* 10_000 &+ 127) / 254, (density.vertical &* 10_000 &+ 127) / 254)
                }
                if (0...Int(Int32.max)).contains(x), (0...Int(Int32.max)).contains(y) {
                    var data: [UInt8] = []
                    data.appendBigEndian(UInt32(x))
                    data.appendBigEndian(UInt32(y))
                    data.append(density.unit == .aspectRatio ? 0 : 1)
                    writer.write(.pHYs, data)
                }
            }
            if metadata.orientation != .up {
                writer.write(.eXIf, metadata.orientation.exifTIFF)
            }
        }
    }
}
