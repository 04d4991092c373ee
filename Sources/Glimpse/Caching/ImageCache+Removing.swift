extension ImageCache {
    /// Removes the data tier's entry under `dataKey` (failures are counted, not thrown).
    public func removeData(forDataKey dataKey: String) async {
        guard let data else { return }
        await removeData(forDataKey: dataKey, from: data)
    }

    private func removeData(forDataKey dataKey: String, from tier: any ImageDataCaching) async {
        do throws(ImageDataTierError) {
            try await tier.removeEntry(forKey: dataKey)
        } catch {
            counters.withLock { $0.errors += 1 }
        }
    }

    /// Removes `key`: its variant from memory, and its original bytes, processed variant
    /// and the variant's encodings by ``ImagePipeline/data(for:format:)`` (in the formats of
    /// ``EncoderRegistry/standard``) from the data tier (or the half of a ``LayeredDataTier``
    /// that `tiers` names: ``Tiers/shared`` removes it for every process of the fleet).
    public func remove(_ key: ImageCacheKey, from tiers: Tiers = .all) async {
        if tiers.contains(.memory) { memory.removeImage(forKey: key.memoryKey) }
        if let (tier, _, _) = dataTier(for: tiers) {
            await removeData(forDataKey: key.base, from: tier)
            if !key.variant.isEmpty { await removeData(forDataKey: key.memoryKey, from: tier) }
            let formats: [ImageFormat?] = [nil] + EncoderRegistry.standard.encodableFormats.sorted { $0.rawValue < $1.rawValue }
            for format in formats { await removeData(forDataKey: key.encodingKey(format), from: tier) }
        }
    }

    /// Empties the given tiers (``Tiers/disk`` alone leaves a layered tier's shared half,
    /// which other processes read, alone).
    public func clear(_ tiers: Tiers = .all) async {
        if tiers.contains(.memory) { memory.removeAllImages() }
        guard let (tier, _, _) = dataTier(for: tiers) else { return }
        do throws(ImageDataTierError) {
            try await tier.removeAllEntries()
        } catch {
            counters.withLock { $0.errors += 1 }
        }
    }
}
