extension PNG {
    /// Writes every frame of an image as APNG (APNG specification 1.0) through
    /// ``PNG/Encoder/encodeAnimation(_:)``; a single frame gives a still PNG.
    public struct AnimationEncoder: ImageEncoder {
        public static var format: ImageFormat { .apng }

        public var options: Encoder.Options

        public init(options: Encoder.Options = Encoder.Options()) {
            self.options = options
        }

        public static func options(from options: EncodingOptions) -> Encoder.Options {
            Encoder.options(from: options)
        }

        public func encode(_ image: Image) throws(Encoder.EncodingError) -> [UInt8] {
            try Encoder(options: options).encodeAnimation(image)
        }
    }
}
