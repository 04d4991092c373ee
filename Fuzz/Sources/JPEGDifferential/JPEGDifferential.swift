import CJPEGReference
import GlimpseCodec

/// The `jpeg-diff` target: Glimpse's JPEG decoder in lenient mode against
/// libjpeg-turbo with refdecode's settings (`--lenient`, what djpeg and browsers
/// show). Both must reject the input, or both accept it with identical pixels.
public enum JPEGDifferential {
    /// Lenient, with the fuzz limits of the other targets; libjpeg-turbo is held to
    /// the same pixel count so that both sides see the same images.
    static let options: DecodingOptions = {
        var options = DecodingOptions(mode: .lenient)
        options.limits = DecodingLimits(maxWidth: 16_384, maxHeight: 16_384, maxPixelsPerFrame: 8 << 20,
                                        maxFrames: 1, maxTotalBytes: 96 << 20, maxScans: 100)
        return options
    }()

    /// Returns a description of a disagreement, or `nil` when both agree.
    public static func check(_ bytes: [UInt8]) -> String? {
        let ours = Result { () throws(ImageDecodingError) in try JPEG.Decoder.decode(bytes, options: options) }
        var rgba: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        let status = bytes.withUnsafeBufferPointer {
            jpeg_reference_decode($0.baseAddress, $0.count, 8 << 20, &rgba, &width, &height)
        }
        defer { jpeg_reference_free(rgba) }
        switch (ours, status == 0) {
        case (.failure, false):
            return nil
        case (.failure(let error), true):
            // Our limits, and arithmetic coding (SOF9-11, not implemented: JPEG/README.md), are the
            // reasons to reject what libjpeg-turbo decodes that are not findings.
            if case .limitExceeded = error { return nil }
            if case .unsupported(.jpegCodingProcess(let marker)) = error, (0xC9...0xCB).contains(marker) { return nil }
            return "libjpeg-turbo decodes a \(width)x\(height) image; Glimpse fails: \(error)"
        case (.success(let image), false):
            return "Glimpse decodes a \(image.pixels.width)x\(image.pixels.height) image; libjpeg-turbo fails"
        case (.success(let image), true):
            guard image.pixels.width == Int(width), image.pixels.height == Int(height), let rgba else {
                return "size \(image.pixels.width)x\(image.pixels.height), libjpeg-turbo \(width)x\(height)"
            }
            let count = Int(width) * Int(height) * 4
            // `rgba` holds width × height × 4 bytes (jpeg_reference_decode allocated them).
            let same = image.pixels.bytes.elementsEqual(UnsafeBufferPointer(start: rgba, count: count))
            return same ? nil : "pixels differ from libjpeg-turbo's (\(width)x\(height))"
        }
    }
}
