import GlimpseCodec
import Testing

@Suite("Image model")
struct ImageModelTests {
    @Test func rowsAreSlicesOfTheSamples() {
        var pixels = PixelBuffer(width: 2, height: 3)
        pixels.withUnsafeMutableRow(1) { row in
            for i in row.indices { row[i] = UInt8(10 + i) }
        }
        #expect(pixels.bytesPerRow == 8)
        #expect(Array(pixels.row(1)) == [10, 11, 12, 13, 14, 15, 16, 17])
        #expect(pixels.row(1).startIndex == 8)
        #expect(pixels.pixel(x: 1, y: 1) == SIMD4(14, 15, 16, 17))
        #expect(pixels.withUnsafeRow(0) { Array($0) } == [UInt8](repeating: 0, count: 8))
    }

    @Test func wrappingChecksTheSampleCount() {
        #expect(PixelBuffer(width: 2, height: 2, bytes: [UInt8](repeating: 0, count: 16)) != nil)
        #expect(PixelBuffer(width: 2, height: 2, bytes: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(PixelBuffer(width: Int.max, height: 2, bytes: []) == nil)
        #expect(PixelBuffer(width: -1, height: 2, bytes: []) == nil)
    }

    @Test func sixteenToEightBitsKeepsTheHighByte() {
        var wide = PixelBuffer(width: 1, height: 1, format: .rgba16)
        wide.bytes.withUnsafeMutableBytes { raw in
            for (i, sample) in [UInt16(0x12FF), 0xAB00, 0x0080, 0xFFFF].enumerated() {
                raw.storeBytes(of: sample, toByteOffset: i * 2, as: UInt16.self)
            }
        }
        let narrow = wide.converted(to: .rgba8)
        #expect(narrow.bytes == [0x12, 0xAB, 0x00, 0xFF])
        #expect(narrow.converted(to: .rgba16).pixel(x: 0, y: 0) == SIMD4(0x1212, 0xABAB, 0, 0xFFFF))
        #expect(narrow.converted(to: .rgba16).converted(to: .rgba8) == narrow)
    }

    @Test func imageDescribesItsFrames() {
        let frame = ImageFrame(pixels: PixelBuffer(width: 4, height: 2), duration: .milliseconds(40))
        let image = Image(frames: [frame, frame], loopCount: 0, format: .gif)
        #expect(image.width == 4 && image.height == 2)
        #expect(image.isAnimated)
        #expect(image.byteCount == 64)
        #expect(!Image(pixels: PixelBuffer(width: 1, height: 1), format: .png).isAnimated)
    }

    @Test func orientationsSwapDimensionsFromFiveOn() {
        #expect(Orientation.allCases.map(\.rawValue) == Array(1...8))
        #expect(Orientation.allCases.filter(\.swapsDimensions) == [.leftMirrored, .right, .rightMirrored, .left])
    }

    @Test func densityConvertsToDotsPerInch() {
        #expect(PixelDensity(horizontal: 2835, vertical: 2835, unit: .perMeter).dotsPerInch! == (72, 72))
        #expect(PixelDensity(horizontal: 1, vertical: 2, unit: .aspectRatio).dotsPerInch == nil)
    }
}

@Suite("PAM")
struct PAMTests {
    @Test(arguments: [PixelFormat.rgba8, .rgba16])
    func roundTrips(_ format: PixelFormat) throws {
        var pixels = PixelBuffer(width: 3, height: 2, format: format)
        for i in pixels.bytes.indices { pixels.bytes[i] = UInt8(truncatingIfNeeded: i &* 37) }
        #expect(try PAM.decode(PAM.encode(pixels)) == pixels)
    }

    @Test func sixteenBitSamplesAreBigEndian() {
        var pixels = PixelBuffer(width: 1, height: 1, format: .rgba16)
        pixels.bytes.withUnsafeMutableBytes { $0.storeBytes(of: UInt16(0x0102), toByteOffset: 0, as: UInt16.self) }
        let encoded = PAM.encode(pixels)
        #expect(Array(encoded.suffix(8)) == [1, 2, 0, 0, 0, 0, 0, 0])
        #expect(String(decoding: encoded.prefix(encoded.count - 8), as: UTF8.self).contains("MAXVAL 65535\n"))
    }

    @Test func truncatedPAMIsTruncated() {
        let encoded = PAM.encode(PixelBuffer(width: 2, height: 2))
        #expect(throws: ImageDecodingError.truncated) { try PAM.decode(Array(encoded.dropLast())) }
    }
}
