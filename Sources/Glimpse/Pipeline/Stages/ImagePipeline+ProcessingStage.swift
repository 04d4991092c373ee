extension ImagePipeline {
    /// Stage 5, the one place bytes become pixels: decoding with the
    /// configuration's registry (at reduced size when the request asks), the
    /// downloaded-image hook, the request's processors and — when the data tier
    /// keeps processed images — their encoding, as one job on the pipeline's
    /// bounded executor.
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
                decoded = await progressive.finish(count: bytes.count)
            } else {
                progressive.close()
            }
        }
        let image = decoded
        guard let result = await executor.run(priority: jobPriority(request), holding: bytes.count, { [self] in
            process(bytes, request, encodes: request.storesProcessed, decoded: image)
        }) else { throw .cancelled }
        return try result.get()
    }

    /// The stage's work, on an executor thread; `decoded` is the image of
    /// `bytes` when a progressive decoder already made it.
    func process(_ bytes: [UInt8], _ request: LoadRequest, encodes: Bool,
                 decoded: Image? = nil) -> Result<Processed, ImageLoadError> {
        let decode = DecodeStage(registry: configuration.decoderRegistry, options: request.request.decodingOptions,
                                 maxPixelBytes: request.request.maximumPixelBytes)
        var image: Image
        if let decoded {
            image = decoded
        } else {
            do throws(ImageDecodingError) {
                image = try decode.decode(bytes)
            } catch {
                return .failure(.decoding(error))
            }
        }
        image = configuration.hooks.transformDownloadedImage?(image, request.url) ?? image
        for processor in request.request.processors {
            do throws(TransformError) {
                image = try processor.transform(image)
            } catch {
                return .failure(.transform(error))
            }
        }
        // An image recovered from damaged bytes is not stored re-encoded: its
        // re-encoding would decode clean, losing the warnings. The original
        // is kept in its place and decodes with the same warnings each time.
        let keepsWarnings = !image.warnings.isEmpty
        let encoded = encodes && !keepsWarnings
            ? DataCacheEncoder(registry: configuration.encoderRegistry, quality: configuration.encodingQuality).encode(image)
            : nil
        return .success(Processed(image: image, encoded: encoded))
    }

    /// Decodes a processed image the data tier kept: no size reduction, hook or
    /// processors (they already ran). `nil` when the bytes no longer decode.
    func decodeStoredVariant(_ bytes: [UInt8], _ request: LoadRequest) -> Image? {
        try? configuration.decoderRegistry.decode(bytes, options: request.request.decodingOptions)
    }

    /// The priority of a job's executor work: its waiters' highest.
    func jobPriority(_ request: LoadRequest) -> ImageDownloadPriority {
        table.withLock { table in
            table.jobs[request.jobKey]?.priority
        } ?? request.request.priority
    }
}
