extension EncoderRegistry {
    /// Glimpse's own encoders: PNG, APNG, GIF, JPEG and WebP (lossless).
    public static var standard: EncoderRegistry {
        var registry = EncoderRegistry()
        registry.register(PNG.Encoder.self, for: .png)
        registry.register(PNG.AnimationEncoder.self, for: .apng)
        registry.register(GIF.Encoder.self, for: .gif)
        registry.register(JPEG.Encoder.self, for: .jpeg)
        registry.register(WebP.Encoder.self, for: .webp)
        return registry
    }
}
