extension EncoderRegistry {
    /// Glimpse's own encoders: PNG, APNG, GIF and JPEG.
    public static var standard: EncoderRegistry {
        var registry = EncoderRegistry()
        registry.register(PNG.Encoder.self, for: .png)
        registry.register(PNG.AnimationEncoder.self, for: .apng)
        registry.register(GIF.Encoder.self, for: .gif)
        registry.register(JPEG.Encoder.self, for: .jpeg)
        return registry
    }
}
