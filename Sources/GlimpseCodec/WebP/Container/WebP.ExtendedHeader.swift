extension WebP {
    /// The `VP8X` chunk (RFC 9649 §2.7): which features the file uses and the canvas size.
    public struct ExtendedHeader: Sendable, Hashable {
        /// The flag byte (`Rsv|I|L|E|X|A|R`, §2.7).
        public struct Flags: OptionSet, Sendable, Hashable {
            public let rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            public static let animation = Flags(rawValue: 0x02)
            public static let xmp = Flags(rawValue: 0x04)
            public static let exif = Flags(rawValue: 0x08)
            public static let alpha = Flags(rawValue: 0x10)
            public static let iccProfile = Flags(rawValue: 0x20)
            /// The bits the specification defines; the others are reserved (0).
            public static let defined: Flags = [.animation, .xmp, .exif, .alpha, .iccProfile]
        }

        public var flags: Flags
        /// Canvas size: the 24-bit fields plus one (§2.7), so 1…2^24.
        public var canvasWidth: Int
        public var canvasHeight: Int

        /// Parses the 10-byte payload (the caller checked the size).
        init(parsing payload: UnsafeRawBufferPointer) throws(ImageDecodingError) {
            flags = Flags(rawValue: payload[0])
            canvasWidth = payload.webpLittleEndian(4, 3) &+ 1
            canvasHeight = payload.webpLittleEndian(7, 3) &+ 1
            guard UInt64(canvasWidth) &* UInt64(canvasHeight) < RIFF.maxImageArea else {
                throw WebP.malformed(.areaTooLarge(width: canvasWidth, height: canvasHeight))
            }
        }
    }

    /// The `ANIM` chunk (RFC 9649 §2.7.1.1).
    public struct AnimationHeader: Sendable, Hashable {
        /// The background colour as stored, byte order blue, green, red, alpha, read
        /// little-endian (so `0xAARRGGBB`). A hint only: libwebp's `WebPAnimDecoder`
        /// (Chrome, Pillow) ignores it and starts from a transparent canvas, and so does Glimpse.
        public var backgroundColor: UInt32
        /// Number of times the animation plays; 0 means forever.
        public var loopCount: Int

        init(parsing payload: UnsafeRawBufferPointer) {
            backgroundColor = UInt32(truncatingIfNeeded: payload.webpLittleEndian(0, 4))
            loopCount = payload.webpLittleEndian(4, 2)
        }

        init(backgroundColor: UInt32 = 0xFFFF_FFFF, loopCount: Int = 1) {
            self.backgroundColor = backgroundColor
            self.loopCount = loopCount
        }
    }

    /// The 16-byte header of an `ANMF` chunk (RFC 9649 §2.7.1.1).
    struct FrameHeader: Sendable, Hashable {
        /// Offset on the canvas: the stored fields times two.
        var x: Int, y: Int
        /// The stored frame size (fields plus one). libwebp's demuxer replaces it by the
        /// size of the frame's bitstream, and so do we; it is only checked for area.
        var width: Int, height: Int
        /// Display duration in milliseconds (24 bits).
        var duration: Int
        /// Disposal bit set: the frame's rectangle becomes transparent before the next frame.
        var disposeToBackground: Bool
        /// Blending bit clear: the frame is alpha-blended over the canvas.
        var blends: Bool

        init(parsing payload: UnsafeRawBufferPointer) throws(ImageDecodingError) {
            x = payload.webpLittleEndian(0, 3) &* 2
            y = payload.webpLittleEndian(3, 3) &* 2
            width = payload.webpLittleEndian(6, 3) &+ 1
            height = payload.webpLittleEndian(9, 3) &+ 1
            duration = payload.webpLittleEndian(12, 3)
            let bits = payload[15]
            disposeToBackground = bits & 1 != 0
            blends = bits & 2 == 0
            guard UInt64(width) &* UInt64(height) < RIFF.maxImageArea else {
                throw WebP.malformed(.areaTooLarge(width: width, height: height))
            }
        }
    }
}
