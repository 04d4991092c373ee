import GlimpseCodec
import TestSupport

/// Small hand-built buffers for the transformer tests.
enum TransformTestImages {
    /// An RGBA8 buffer from pixels listed row by row.
    static func rgba8(width: Int, height: Int, _ pixels: [SIMD4<UInt8>]) -> PixelBuffer {
        let bytes = pixels.flatMap { [$0.x, $0.y, $0.z, $0.w] }
        return PixelBuffer(width: width, height: height, bytes: bytes)!
    }

    /// A buffer whose pixel n (row-major) is (n + 1, 10·(n + 1), 255 − n, 255):
    /// every pixel is distinguishable, so rearrangements can be checked exactly.
    static func labelled(width: Int, height: Int) -> PixelBuffer {
        var pixels: [SIMD4<UInt8>] = []
        for n in 0..<(width * height) {
            let label = UInt8(n + 1)
            pixels.append(SIMD4(label, label &* 10, 255 - label, 255))
        }
        return rgba8(width: width, height: height, pixels)
    }

    /// The label (n + 1) of each pixel of a buffer made by ``labelled(width:height:)``, row by row.
    static func labels(_ buffer: PixelBuffer) -> [[Int]] {
        (0..<buffer.height).map { y in (0..<buffer.width).map { x in Int(buffer.pixel(x: x, y: y).x) } }
    }

    static func constant(width: Int, height: Int, _ colour: SIMD4<UInt8>, format: PixelFormat = .rgba8) -> PixelBuffer {
        rgba8(width: width, height: height, Array(repeating: colour, count: width * height)).converted(to: format)
    }

    /// Every pixel of `buffer`, row by row.
    static func allPixels(_ buffer: PixelBuffer) -> [SIMD4<UInt16>] {
        (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer.pixel(x: x, y: y) } }
    }

    /// The largest difference of any sample between two buffers of equal size.
    static func maximumDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        zip(allPixels(a), allPixels(b)).map { p, q in
            (0..<4).map { abs(Int(p[$0]) - Int(q[$0])) }.max() ?? 0
        }.max() ?? 0
    }

    /// A PAM fixture under `Fixtures/transform/`.
    static func fixture(_ name: String) throws -> PixelBuffer {
        try PAM.decode(Fixtures.bytes("transform/\(name)"))
    }
}
