import Foundation

extension ImagePipeline {
    /// One ``data(for:format:)`` in flight: the variant's load and the asked format.
    struct EncodingKey: Hashable, Sendable {
        var job: JobKey
        var format: ImageFormat?
    }

    typealias EncodingWaiter = CheckedContinuation<Result<EncodedImage, ImageLoadError>, Never>
    /// The ``data(for:format:)`` calls in flight, each shared by the callers that ask for
    /// the same variant in the same format meanwhile.
    typealias EncodingTable = CoalescingTable<EncodingKey, EncodingWaiter, Task<Void, Never>, ImageDownloadPriority>

    /// The image `request` describes, encoded as `format`: the bytes to send.
    ///
    /// ```swift
    /// let thumbnail = try await pipeline.data(for: ImageRequest(url: url, processors: [.resize(width: 256)]),
    ///                                         format: .webp)
    /// // Content-Type: thumbnail.contentType; body: thumbnail.bytes
    /// ```
    ///
    /// The data tier answers when it keeps the variant in that format — the processed
    /// image the loads store (``DataCachePolicy``), or an encoding an earlier call
    /// stored — with no decode and no encode. Otherwise the image is loaded as
    /// ``load(_:)-(ImageRequest)`` loads it (memory, data tier, loader; shared with the
    /// loads of the same variant), encoded on the pipeline's executor with
    /// ``Configuration/encoderRegistry`` (JPEG at ``Configuration/encodingQuality``,
    /// 4:2:0) and stored in the data tier beside the variant, so the next call is a
    /// data-tier hit; with ``ImageRequest/Options/waitForDiskStore`` the call returns
    /// once that write is done. The original's bytes are never returned as they are:
    /// a request without processors is encoded from its decoded image too. Without a
    /// data tier (``ImageRequest/Options/memoryCacheOnly``, a memory-only cache) every
    /// call encodes, from the memory tier's image when it has it.
    ///
    /// Concurrent calls for the same variant and format share one lookup, load and
    /// encode; each caller can cancel alone. Under ``HTTPCachePolicy/respect`` a stale
    /// stored encoding is not served: the load revalidates.
    ///
    /// - Parameter format: JPEG, PNG, GIF or WebP (any format the registry encodes);
    ///   `nil` for the format the data tier keeps processed images in: JPEG for an
    ///   opaque 8-bit still image, PNG otherwise (an animation: its own format when
    ///   the registry encodes it). ``preferredFormat(accepting:)`` picks one from an
    ///   HTTP `Accept` field.
    /// - Throws: what a load throws, and ``ImageLoadError/encoding(_:)`` when the
    ///   image cannot be encoded as `format`.
    public func data(for request: ImageRequest, format: ImageFormat? = nil) async throws(ImageLoadError) -> EncodedImage {
        let resolved: LoadRequest
        switch resolve(request) {
        case .success(let loadRequest): resolved = loadRequest
        case .failure(let error): throw error
        }
        if Task.isCancelled { throw .cancelled }
        let key = EncodingKey(job: resolved.jobKey, format: format)
        let holder = PendingCancellation<UInt64> { [self] waiter in
            guard let detached = encodings.withLock({ $0.detach(waiter) }) else { return }
            detached.orphaned?.cancel()
            detached.waiter.resume(returning: .failure(.cancelled))
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: EncodingWaiter) in
                let attached = encodings.withLock { $0.attach(key, continuation, priority: request.priority) }
                holder.store(attached.waiter)
                guard let work = attached.newWork else { return }
                let task = Task(priority: request.priority.taskPriority) { [self] in
                    let encoded = await measuredEncoding(resolved, format: format)
                    for waiter in encodings.withLock({ $0.finish(key, work: work) }) { waiter.resume(returning: encoded) }
                }
                let kept = encodings.withLock { $0.updateHandle(key, work: work) { $0 = task } }
                if !kept { task.cancel() }
            }
        } onCancel: {
            holder.cancel()
        }
        return try result.get()
    }

    /// ``encodedData(_:format:)`` with a recorder of its durations, which its result carries.
    private func measuredEncoding(_ request: LoadRequest, format: ImageFormat?) async -> Result<EncodedImage, ImageLoadError> {
        let recorder = LoadMetricsRecorder()
        let start = instruments.now()
        let result = await LoadMetricsRecorder.$current.withValue(recorder) { () async -> Result<EncodedImage, ImageLoadError> in
            do throws(ImageLoadError) {
                return .success(try await encodedData(request, format: format))
            } catch {
                return .failure(error)
            }
        }
        let total = instruments.now() - start
        return result.map { encoded in
            var encoded = encoded
            encoded.metrics = recorder.metrics(tier: encoded.metrics.tier, bytes: encoded.metrics.bytes, total: total)
            return encoded
        }
    }

    /// The data tier's encoding, else the loaded image encoded and stored. The result's
    /// metrics carry only the tier and the bytes read; the recorder has the durations.
    private func encodedData(_ request: LoadRequest, format: ImageFormat?) async throws(ImageLoadError) -> EncodedImage {
        if let stored = await storedEncoding(request, format: format) { return stored }

        let loaded = try await load(request.request)
        LoadMetricsRecorder.current?.add(loaded.metrics)
        let image = loaded.image
        let encoder = DataCacheEncoder(registry: configuration.encoderRegistry, quality: configuration.encodingQuality)
        let target = format ?? DataCacheEncoder.processedFormat(of: image, registry: configuration.encoderRegistry)
        var result: EncodedImage
        if let encoded = loaded.encoded, encoded.format == target {
            // The load encoded it for the data tier (and stored it under the variant's key).
            result = encoded
        } else {
            let submitted = instruments.now()
            let priority = jobPriority(request)
            let outcome = await executor.run(priority: priority) { [self] () -> (Result<EncodedImage, ImageLoadError>, Duration, Duration) in
                let start = instruments.now()
                do throws(ImageEncodingError) {
                    let encoded = try encoder.encode(image, as: target)
                    return (.success(encoded), start, instruments.record(.encode, since: start))
                } catch {
                    return (.failure(.encoding(error)), start, instruments.now() - start)
                }
            }
            guard let outcome else { throw .cancelled }
            let (encoding, started, elapsed) = outcome
            recordQueued(from: submitted, to: started)
            LoadMetricsRecorder.current?.add(.encode, elapsed)
            result = try encoding.get()
            await storeEncoding(result, request, loaded: loaded, format: format)
        }
        result.sourceFormat = image.format
        result.metrics = ImageTask.Metrics(tier: loaded.tier, bytes: loaded.metrics.bytes)
        return result
    }

    /// The data tier's key of an encoding ``data(for:format:)`` stored: beside the variant's.
    private func encodingKey(_ request: LoadRequest, format: ImageFormat?) -> String {
        request.key.encodingKey(format)
    }

    /// Where an encoding is kept: under the variant's own key when it is what the loads
    /// store there (the processed-format rule's choice), else beside it.
    private func storageKey(_ encoded: EncodedImage, _ request: LoadRequest, image: Image, format: ImageFormat?) -> String {
        if request.storesProcessed,
           encoded.format == DataCacheEncoder.processedFormat(of: image, registry: configuration.encoderRegistry) {
            return request.key.memoryKey
        }
        return encodingKey(request, format: format)
    }

    /// The stored encoding in `format`, without decoding it (its size read from its header).
    private func storedEncoding(_ request: LoadRequest, format: ImageFormat?) async -> EncodedImage? {
        guard request.readsCache, request.usesDisk, configuration.cache.data != nil else { return nil }
        var keys: [String] = []
        if request.isProcessed, request.policy != .originalOnly { keys.append(request.key.memoryKey) }
        keys.append(encodingKey(request, format: format))
        for key in keys {
            let start = instruments.now()
            let entry = await configuration.cache.entry(forDataKey: key)
            LoadMetricsRecorder.current?.addDataLookup(instruments.now() - start)
            instruments.dataLookup(entry?.tier)
            guard let entry, let stored = encoding(of: entry, format: format) else { continue }
            return stored
        }
        return nil
    }

    /// An entry as an ``EncodedImage`` when it is in `format` (any, for `nil`), fresh
    /// under ``HTTPCachePolicy/respect``, and its header reads.
    private func encoding(of entry: ImageDataEntry, format: ImageFormat?) -> EncodedImage? {
        guard let stored = entry.metadata.contentType.flatMap(EncodedImage.format(ofContentType:)),
              format == nil || format == stored else { return nil }
        if configuration.httpCachePolicy == .respect, entry.metadata.freshness?.isFresh(at: Date()) != true {
            return nil
        }
        guard let info = DecodeStage.probe(entry.data, registry: configuration.decoderRegistry),
              info.width > 0, info.height > 0 else { return nil }
        return EncodedImage(bytes: entry.data, format: stored, contentType: entry.metadata.contentType, width: info.width,
                            height: info.height, sourceFormat: entry.metadata.sourceFormat,
                            metrics: ImageTask.Metrics(tier: entry.tier, bytes: entry.data.count))
    }

    /// Keeps an encoding for the next call, with the validators and freshness of the
    /// response its image came from, unless that response may not be stored.
    private func storeEncoding(_ encoded: EncodedImage, _ request: LoadRequest, loaded: ImageResult,
                               format: ImageFormat?) async {
        guard request.usesDisk, configuration.cache.data != nil else { return }
        if let response = loaded.response, !configuration.httpCachePolicy.allowsStoring(headers: response.headers) {
            return
        }
        var metadata = loaded.cacheMetadata
            ?? loaded.response.map { self.metadata(of: $0, request, freshness: freshness(of: $0, requestTime: Date())) }
            ?? ImageDataMetadata(originalURL: request.url.absoluteString)
        metadata.contentType = encoded.contentType
        metadata.sourceFormat = loaded.image.format
        metadata.originalURL = request.url.absoluteString
        let key = storageKey(encoded, request, image: loaded.image, format: format)
        await instruments.stage(.store, url: request.url) { () async -> Void in
            await configuration.cache.storeData(encoded.bytes, metadata: metadata, forDataKey: key,
                                                waits: request.options.contains(.waitForDiskStore))
        }
    }

    /// The format to send to a client whose `Accept` field (RFC 9110 §12.5.1) is
    /// `accept`: WebP when it names `image/webp` (as browsers that decode it do), else
    /// `fallback` (`nil`: the processed-format rule of ``data(for:format:)``). A response
    /// chosen this way should say `Vary: Accept` (RFC 9110 §12.5.5), so that shared caches
    /// keep one copy per format.
    public static func preferredFormat(accepting accept: String?, fallback: ImageFormat? = nil) -> ImageFormat? {
        guard let accept else { return fallback }
        for element in accept.split(separator: ",") {
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "image/webp" else { continue }
            // "q=0" means "not acceptable" (§12.4.2).
            let refused = parts.dropFirst().contains { parameter in
                parameter.hasPrefix("q=") && (Double(parameter.dropFirst(2)) ?? 1) <= 0
            }
            return refused ? fallback : .webp
        }
        return fallback
    }
}
