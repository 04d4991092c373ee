extension DecoderRegistry {
    /// Glimpse's own decoders. Each format issue adds its decoder here.
    public static var standard: DecoderRegistry {
        var registry = DecoderRegistry()
        registry.register(PNG.Decoder.self, for: .png, .apng)
        registry.register(GIF.Decoder.self, for: .gif)
        registry.register(JPEG.Decoder.self, for: .jpeg)
        registry.register(WebP.Decoder.self, for: .webp)
        registry.register(AVIF.Decoder.self, for: .avif)
        return registry
    }
}
