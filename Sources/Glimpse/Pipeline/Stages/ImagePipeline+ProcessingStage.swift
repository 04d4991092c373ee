extension ImagePipeline {
    /// Stage 5, the one place bytes become pixels: the original decoded by the
    /// decode unit (``decodeOriginal(_:plan:_:priority:)``: one decode shared by
    /// every variant that can use it, reduced when the first processor allows),
    /// then the downloaded-image hook, the rest of the request's processors and —
    /// when the data tier keeps processed images — their encoding, as one job on
    /// the pipeline's bounded executor.
    ///
    /// - Parameter progressive: the feed of a progressive load, whose decoder
    ///   has seen every byte: finishing it gives the image without decoding the
    ///   body a second time (unless the request decodes at reduced size, which
    ///   the feed's decoder does not).
    func processingStage(_ bytes: [UInt8], _ request: LoadRequest,
                         progressive: ProgressiveFeed? = nil) async throws(ImageLoadError) -> Processed {
        var decoded: Image?
        if let progressive {
            // A downloader's data transform changes the bytes after the feed saw them.
            if request.request.maximumPixelBytes == nil, configuration.downloader?.configuration.hooks.transformData == nil {
                let start = instruments.now()
                decoded = await progressive.finish(count: bytes.count)
                // The feed's last piece and its finish: the decode's part the body's arrival did not hide.
                if decoded != nil { LoadMetricsRecorder.current?.add(.decode, instruments.now() - start) }
            } else {
                progressive.close()
            }
            if decoded == nil {
                instruments.logger.debug("progressive decode not usable; decoding the whole body", metadata: [
                    GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(request.url))",
                ])
            }
        }
        var processors = request.request.processors
        let image: Image
        if let decoded {
            image = decoded
        } else {
            let plan = DecodePlan.make(for: bytes, request, options: configuration.decodingOptions(for: request.request),
                                       registry: configuration.decoderRegistry,
                                       hasDownloadedImageHook: configuration.hooks.transformDownloadedImage != nil)
            image = try await decodeOriginal(bytes, plan: plan, request, priority: jobPriority(request))
            if plan.consumesFirstProcessor { processors.removeFirst() }
            if case .full = plan.method, request.request.processors.first is ImageTransformers.Resize {
                instruments.logger.trace("no reduced decode for this resize; decoded at full size", metadata: [
                    GlimpseObservability.MetadataKey.url: "\(GlimpseObservability.redacted(request.url))",
                ])
            }
        }
        let remaining = processors
        let priority = jobPriority(request)
        // The span covers the wait for a thread; the process and encode timers only the work.
        let submitted = instruments.now()
        let result = await instruments.stage(.process, url: request.url, times: false) { () async -> Result<Processed, ImageLoadError>? in
            await executor.run(priority: priority, { [self] in
                finish(image, request, processors: remaining, encodes: request.storesProcessed)
            })
        }
        guard let result else { throw .cancelled }
        let processed = try result.get()
        if let recorder = LoadMetricsRecorder.current {
            recorder.addQueued(max(.zero, processed.started - submitted))
            if let process = processed.processDuration { recorder.add(.process, process) }
            if let encode = processed.encodeDuration { recorder.add(.encode, encode) }
        }
        return processed
    }

    /// After the decode, on an executor thread: the hook, `processors`, the encoding.
    func finish(_ decoded: Image, _ request: LoadRequest, processors: [any ImageTransformer],
                encodes: Bool) -> Result<Processed, ImageLoadError> {
        let start = instruments.now()
        var image = configuration.hooks.transformDownloadedImage?(decoded, request.url) ?? decoded
        for processor in processors {
            do throws(TransformError) {
                image = try processor.transform(image)
            } catch {
                return .failure(.transform(error))
            }
        }
        var processDuration: Duration?
        if !processors.isEmpty || configuration.hooks.transformDownloadedImage != nil {
            processDuration = instruments.record(.process, since: start)
        }
        // A processed image is still the source's: its format and metadata stay.
        image.format = decoded.format
        // An image recovered from damaged bytes is not stored re-encoded: its
        // re-encoding would decode clean, losing the warnings. The original
        // is kept in its place and decodes with the same warnings each time.
        let keepsWarnings = !image.warnings.isEmpty
        let encodeStart = instruments.now()
        let encoded = encodes && !keepsWarnings
            ? DataCacheEncoder(registry: configuration.encoderRegistry, quality: configuration.encodingQuality).encode(image)
            : nil
        let encodeDuration = encoded != nil ? instruments.record(.encode, since: encodeStart) : nil
        return .success(Processed(image: image, encoded: encoded, started: start, processDuration: processDuration,
                                  encodeDuration: encodeDuration))
    }

    /// Decodes a processed image the data tier kept: no size reduction, hook or
    /// processors (they already ran); it reports its original's format. `nil` when
    /// the bytes no longer decode.
    func decodeStoredVariant(_ entry: ImageDataEntry, _ request: LoadRequest) -> Image? {
        let options = configuration.decodingOptions(for: request.request)
        guard var image = try? configuration.decoderRegistry.decode(entry.data, options: options) else {
            return nil
        }
        if let source = entry.metadata.sourceFormat { image.format = source }
        return image
    }

    /// The priority of a job's executor work: its waiters' highest.
    func jobPriority(_ request: LoadRequest) -> ImageDownloadPriority {
        table.withLock { $0.priority(of: request.jobKey) } ?? request.request.priority
    }
}
