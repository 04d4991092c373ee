extension GIF {
    /// The file's header and Logical Screen Descriptor (GIF89a §17, §18).
    public struct LogicalScreen: Sendable, Hashable {
        /// `true` for "GIF89a", `false` for "GIF87a".
        public var is89a: Bool
        /// Canvas width in pixels.
        public var width: Int
        /// Canvas height in pixels.
        public var height: Int
        /// Number of entries of the global colour table, or `nil` when absent.
        public var globalColorTableCount: Int?
        /// Background colour index. Glimpse clears to transparent instead, as
        /// browsers do; kept for tools.
        public var backgroundIndex: Int
        /// The raw pixel aspect ratio byte (0: square pixels).
        public var pixelAspectRatio: Int

        /// Parses the 13 bytes of signature, version and descriptor.
        static func parse(_ bytes: [UInt8]) throws(ImageDecodingError) -> LogicalScreen {
            guard bytes.count >= 13, bytes[0] == 0x47, bytes[1] == 0x49, bytes[2] == 0x46,
                  bytes[3] == 0x38, bytes[5] == 0x61, bytes[4] == 0x37 || bytes[4] == 0x39
            else { throw .malformed(.gif(.signature)) }
            let flags = bytes[10]
            return LogicalScreen(
                is89a: bytes[4] == 0x39,
                width: Int(bytes[6]) | Int(bytes[7]) << 8,
                height: Int(bytes[8]) | Int(bytes[9]) << 8,
                globalColorTableCount: flags & 0x80 != 0 ? 2 << Int(flags & 7) : nil,
                backgroundIndex: Int(bytes[11]),
                pixelAspectRatio: Int(bytes[12]))
        }
    }

    /// An Image Descriptor (GIF89a §20): where the next frame goes on the canvas.
    public struct ImageDescriptor: Sendable, Hashable {
        public var left: Int
        public var top: Int
        public var width: Int
        public var height: Int
        /// Rows are stored in the four-pass order of GIF89a Appendix E.
        public var isInterlaced: Bool
        /// Number of entries of the local colour table, or `nil` when absent.
        public var localColorTableCount: Int?

        /// Parses the 9 bytes after the 0x2C separator.
        static func parse(_ bytes: [UInt8]) -> ImageDescriptor {
            let flags = bytes[8]
            return ImageDescriptor(
                left: Int(bytes[0]) | Int(bytes[1]) << 8,
                top: Int(bytes[2]) | Int(bytes[3]) << 8,
                width: Int(bytes[4]) | Int(bytes[5]) << 8,
                height: Int(bytes[6]) | Int(bytes[7]) << 8,
                isInterlaced: flags & 0x40 != 0,
                localColorTableCount: flags & 0x80 != 0 ? 2 << Int(flags & 7) : nil)
        }
    }

    /// A Graphic Control Extension (GIF89a §23): how the next frame is shown.
    public struct GraphicControl: Sendable, Hashable {
        public var disposal: Disposal = .unspecified
        /// The palette index that leaves the canvas untouched, if any.
        public var transparentIndex: Int?
        /// Delay in centiseconds, as stored.
        public var delayCentiseconds: Int = 0

        public init(disposal: Disposal = .unspecified, transparentIndex: Int? = nil, delayCentiseconds: Int = 0) {
            self.disposal = disposal
            self.transparentIndex = transparentIndex
            self.delayCentiseconds = delayCentiseconds
        }

        /// Parses the first sub-block of the extension (4 bytes: flags, delay, index).
        /// A shorter block keeps the defaults for the fields it lacks.
        static func parse(_ block: [UInt8]) -> GraphicControl {
            var control = GraphicControl()
            guard block.count >= 1 else { return control }
            let flags = block[0]
            control.disposal = Disposal(field: (flags >> 2) & 7)
            if block.count >= 3 { control.delayCentiseconds = Int(block[1]) | Int(block[2]) << 8 }
            if block.count >= 4, flags & 1 != 0 { control.transparentIndex = Int(block[3]) }
            return control
        }
    }
}
