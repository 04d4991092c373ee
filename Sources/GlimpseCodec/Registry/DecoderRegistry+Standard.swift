extension DecoderRegistry {
    /// Glimpse's own decoders. Each format issue adds its decoder here.
    public static var standard: DecoderRegistry {
        let registry = DecoderRegistry()
        return registry
    }
}
