extension ImagePipeline {
    /// The decode unit's key: the original (its data-tier key, and a fingerprint of the
    /// bytes, so that a fresh download never shares a decode with a stale copy) and the plan.
    struct DecodeKey: Hashable, Sendable {
        var base: String
        var plan: DecodePlan
        var byteCount: Int
        var fingerprint: UInt64
    }

    /// A decode's image and how long it waited for a thread and ran: every variant that
    /// shared it reports these (``ImageTask/Metrics``).
    struct DecodedOriginal: Sendable {
        var image: Image
        var queued: Duration?
        var decode: Duration?
    }

    typealias DecodeWaiter = CheckedContinuation<Result<DecodedOriginal, ImageLoadError>, Never>
    /// The decodes in flight, each shared by the variants that wait for it.
    typealias DecodeTable = CoalescingTable<DecodeKey, DecodeWaiter, Task<Void, Never>, ImageDownloadPriority>

    /// Decodes an original as `plan` says, on the executor, once for every caller that asks
    /// for the same original and plan meanwhile (two thumbnail sizes that need the same JPEG
    /// scale share it). The decode's priority is its callers' highest; it is cancelled when
    /// the last caller leaves.
    func decodeOriginal(_ bytes: [UInt8], plan: DecodePlan, _ request: LoadRequest,
                        priority: ImageDownloadPriority) async throws(ImageLoadError) -> Image {
        let key = DecodeKey(base: request.key.base, plan: plan, byteCount: bytes.count,
                            fingerprint: Self.fingerprint(bytes))
        let holder = PendingCancellation<UInt64> { [self] waiter in
            guard let detached = decodes.withLock({ $0.detach(waiter) }) else { return }
            detached.orphaned?.cancel()
            detached.waiter.resume(returning: .failure(.cancelled))
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: DecodeWaiter) in
                let attached = decodes.withLock { $0.attach(key, continuation, priority: priority) }
                holder.store(attached.waiter)
                guard let work = attached.newWork else { return }
                decodesStarted.add(1, ordering: .relaxed)
                let url = request.url
                let task = Task { [self] in
                    let effective = decodes.withLock { $0.priority(of: key, work: work) } ?? priority
                    // The span covers the wait for a thread; the stage's timer only the decode.
                    let submitted = instruments.now()
                    let decoded = await instruments.stage(.decode, url: url, times: false) { () async -> Result<DecodedOriginal, ImageLoadError> in
                        await executor.run(priority: effective, holding: bytes.count) { [self] in
                            let start = instruments.now()
                            return decode(bytes, plan).map { image in
                                let elapsed = instruments.recordDecode(image, since: start, url: url)
                                return DecodedOriginal(image: image, queued: max(.zero, start - submitted), decode: elapsed)
                            }
                        } ?? .failure(.cancelled)
                    }
                    for waiter in decodes.withLock({ $0.finish(key, work: work) }) { waiter.resume(returning: decoded) }
                }
                let kept = decodes.withLock { $0.updateHandle(key, work: work) { $0 = task } }
                if !kept { task.cancel() }
            }
        } onCancel: {
            holder.cancel()
        }
        let decoded = try result.get()
        if let recorder = LoadMetricsRecorder.current {
            if let queued = decoded.queued { recorder.addQueued(queued) }
            if let decode = decoded.decode { recorder.add(.decode, decode) }
        }
        return decoded.image
    }

    /// The decode itself, on an executor thread.
    private func decode(_ bytes: [UInt8], _ plan: DecodePlan) -> Result<Image, ImageLoadError> {
        let registry = configuration.decoderRegistry
        switch plan.method {
        case .full(let maximumPixelBytes):
            do throws(ImageDecodingError) {
                return .success(try DecodeStage(registry: registry, options: plan.options,
                                                maxPixelBytes: maximumPixelBytes).decode(bytes))
            } catch {
                return .failure(.decoding(error))
            }
        case .scaledJPEG:
            do throws(ImageDecodingError) {
                return .success(try registry.decode(bytes, options: plan.options))
            } catch {
                return .failure(.decoding(error))
            }
        case .thumbnail(let box, let filter):
            do throws(ThumbnailDecoder.Failure) {
                return .success(try ThumbnailDecoder.decode(bytes, maxPixelSize: box, filter: filter, registry: registry,
                                                            options: plan.options))
            } catch {
                switch error {
                case .decoding(let reason): return .failure(.decoding(reason))
                case .transform(let reason): return .failure(.transform(reason))
                }
            }
        }
    }

    /// FNV-1a (64-bit) of the length and of up to 512 bytes at each end: tells two bodies of
    /// one URL apart (a new version rewrites its header or its end) at no cost a decode notices.
    static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var count = UInt64(bytes.count)
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: count))
            count >>= 8
        }
        for byte in bytes.prefix(512) { mix(byte) }
        for byte in bytes.suffix(512) { mix(byte) }
        return hash
    }
}
