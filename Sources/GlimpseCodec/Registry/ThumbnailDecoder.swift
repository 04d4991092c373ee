/// Decodes an image straight to a thumbnail that fits inside
/// `maxPixelSize` × `maxPixelSize` (never enlarged), the cheap way: the way
/// ImageIO's `kCGImageSourceThumbnailMaxPixelSize` and libvips' `thumbnail`
/// do it, without ever holding the full-size image when the format allows.
///
/// - JPEG: decoded at 1/2, 1/4 or 1/8 size by the inverse DCT
///   (``DecodingOptions/scaleDenominator``; the largest reduction that keeps
///   the image at least as large as the thumbnail), then resized. At 1/8 the
///   progressive AC scans no pixel depends on are skipped
///   (``DecodingOptions/skipsUnusedScans``).
/// - PNG (not interlaced, not animated): rows go from the decoder
///   (``PNG/RowDecoder``) into the resize (``ImageTransformers/Resize/RowStream``)
///   as they are decoded, so memory is the thumbnail plus a few rows.
/// - Anything else (and Adam7, APNG): decoded whole, first frame only, then resized.
///
/// The resize is ``ImageTransformers/Resize`` in ``ImageTransformers/Resize/Mode/fit``
/// mode (Lanczos-3 by default, with its box pre-reduction), applied before the
/// EXIF orientation (the box is square, so the fit is the same either way);
/// the result is then turned upright, its metadata kept with orientation `.up`.
/// Input arrives through ``append(_:)`` like any ``ImageDecoder``'s.
public struct ThumbnailDecoder: Sendable {
    /// What went wrong: the decode, or the resize (limits, parameters).
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case decoding(ImageDecodingError)
        case transform(TransformError)

        public var description: String {
            switch self {
            case .decoding(let error): "\(error)"
            case .transform(let error): "\(error)"
            }
        }
    }

    private enum State: Sendable {
        /// Until the header is known: the bytes so far, and a decoder reading them for it.
        case probing([UInt8], AutoDecoder)
        case whole(AutoDecoder)
        case rows(PNG.RowDecoder, ImageTransformers.Resize.RowStream?)
        case failed(Failure)
    }

    public let maxPixelSize: Int
    public let resize: ImageTransformers.Resize
    private let registry: DecoderRegistry
    private let options: DecodingOptions
    private var state: State

    /// - Parameters:
    ///   - maxPixelSize: the side of the square box the thumbnail fits inside.
    ///   - filter: the resize filter.
    ///   - registry: the decoders; PNG rows are streamed when its PNG decoder is ``PNG/Decoder``.
    ///   - options: decoding options (``DecodingOptions/firstFrameOnly`` is
    ///     always set; ``DecodingOptions/scaleDenominator`` is chosen here).
    public init(maxPixelSize: Int, filter: ResamplingFilter = .lanczos3, registry: DecoderRegistry = .standard,
                options: DecodingOptions = DecodingOptions()) {
        self.maxPixelSize = maxPixelSize
        resize = ImageTransformers.Resize(width: maxPixelSize, height: maxPixelSize, mode: .fit, filter: filter,
                                          allowsUpscaling: false, appliesOrientation: false, limits: options.limits)
        self.registry = registry
        var options = options
        options.firstFrameOnly = true
        options.scaleDenominator = 1
        options.skipsUnusedScans = true
        self.options = options
        state = .probing([], AutoDecoder(registry: registry, options: options))
    }

    /// The largest JPEG DCT scale 1/d (d = 1, 2, 4, 8) that keeps the longer
    /// side at least `box` (libjpeg's scaled sizes round up).
    public static func scaleDenominator(width: Int, height: Int, box: Int) -> Int {
        guard width > 0, height > 0 else { return 1 }
        let longer = max(width, height)
        for d in [8, 4, 2] where (longer + d - 1) / d >= box { return d }
        return 1
    }

    /// Takes the next bytes of the file.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        let current = state
        state = .failed(.decoding(.truncated))
        do throws(Failure) {
            state = try Self.advance(current, bytes, self)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private static func advance(_ state: State, _ bytes: UnsafeRawBufferPointer, _ context: ThumbnailDecoder) throws(Failure) -> State {
        switch state {
        case .failed(let error):
            throw error
        case .probing(var buffered, var probe):
            // Small pieces, so that the probe stops at the header rather than decode the image.
            var offset = 0
            while probe.info == nil && offset < bytes.count {
                let end = min(bytes.count, offset + 512)
                do {
                    _ = try probe.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                } catch {
                    throw .decoding(error)
                }
                offset = end
            }
            guard let info = probe.info else {
                buffered.append(contentsOf: bytes)
                return .probing(buffered, probe)
            }
            // The header is known: choose the path, and give it every byte so far.
            return try context.start(info: info, format: probe.format, with: buffered, then: bytes)
        case .whole(var decoder):
            do { _ = try decoder.append(bytes) } catch { throw .decoding(error) }
            return .whole(decoder)
        case .rows(var decoder, var stream):
            try context.feedRows(&decoder, &stream, bytes)
            return .rows(decoder, stream)
        }
    }

    private func start(info: ImageInfo, format: SniffedFormat?, with buffered: [UInt8],
                       then bytes: UnsafeRawBufferPointer) throws(Failure) -> State {
        if format?.format == .png, let png = registry.decoder(for: .png), png == PNG.Decoder.self {
            var decoder = PNG.RowDecoder(options: options)
            var stream: ImageTransformers.Resize.RowStream?
            try Self.withBytes(buffered) { (raw) throws(Failure) in try feedRows(&decoder, &stream, raw) }
            try feedRows(&decoder, &stream, bytes)
            return .rows(decoder, stream)
        }
        var options = self.options
        if format?.format == .jpeg {
            options.scaleDenominator = Self.scaleDenominator(width: info.width, height: info.height, box: maxPixelSize)
        }
        var decoder = AutoDecoder(registry: registry, options: options)
        do {
            if !buffered.isEmpty { _ = try decoder.append(buffered) }
            _ = try decoder.append(bytes)
        } catch {
            throw .decoding(error)
        }
        return .whole(decoder)
    }

    private func feedRows(_ decoder: inout PNG.RowDecoder, _ stream: inout ImageTransformers.Resize.RowStream?,
                          _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var failure: TransformError?
        do {
            _ = try decoder.append(bytes) { rows in Self.take(rows, resize, &stream, &failure) }
        } catch {
            throw .decoding(error)
        }
        if let failure { throw .transform(failure) }
    }

    /// Hands a band of rows to the resize, made at the first band (IHDR has
    /// given the size by then).
    private static func take(_ rows: PNG.RowDecoder.Rows, _ resize: ImageTransformers.Resize,
                             _ stream: inout ImageTransformers.Resize.RowStream?, _ failure: inout TransformError?) {
        guard failure == nil, let base = rows.bytes.baseAddress else { return }
        if stream == nil {
            do {
                stream = try resize.rowStream(sourceWidth: rows.width, sourceHeight: rows.height, format: rows.format)
            } catch {
                failure = error
                return
            }
        }
        stream?.append(rows: base, count: rows.count, bytesPerRow: rows.bytesPerRow)
    }

    /// The thumbnail, upright. Throws what the decoder's `finish()` throws for
    /// the input (``ImageDecodingError/truncated`` when it ended too early).
    public mutating func finish() throws(Failure) -> Image {
        let current = state
        state = .failed(.decoding(.truncated))
        do throws(Failure) {
            let image = try finish(current)
            state = .failed(.decoding(.truncated))
            return image
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private func finish(_ state: State) throws(Failure) -> Image {
        var image: Image
        switch state {
        case .failed(let error):
            throw error
        case .probing(let buffered, _):
            // The header never came complete: the decoder says why.
            var decoder = AutoDecoder(registry: registry, options: options)
            do {
                _ = try decoder.append(buffered)
                image = try decoder.finish()
            } catch {
                throw .decoding(error)
            }
            image = try resized(image)
        case .whole(var decoder):
            do { image = try decoder.finish() } catch { throw .decoding(error) }
            image = try resized(image)
        case .rows(var decoder, var stream):
            var failure: TransformError?
            let outcome: PNG.RowDecoder.Outcome
            do {
                outcome = try decoder.finish { rows in Self.take(rows, resize, &stream, &failure) }
            } catch {
                throw .decoding(error)
            }
            if let failure { throw .transform(failure) }
            switch outcome {
            case .image(let whole):
                image = try resized(whole)
            case .streamed(let rowsDecoded, let metadata, let warnings):
                guard let stream else { throw .decoding(.truncated) }
                let complete = rowsDecoded >= stream.sourceHeight
                image = Image(frames: [ImageFrame(pixels: stream.finish(), isComplete: complete)], format: .png,
                              metadata: metadata, warnings: warnings)
            }
        }
        do {
            return try ImageTransformers.AutoOrient().transform(image)
        } catch {
            throw .transform(error)
        }
    }

    /// The first frame of a whole decode, fitted into the box.
    private func resized(_ image: Image) throws(Failure) -> Image {
        var image = image
        image.frames = Array(image.frames.prefix(1))
        do {
            return try resize.transform(image)
        } catch {
            throw .transform(error)
        }
    }
}

extension ThumbnailDecoder {
    /// The thumbnail of a whole file in memory.
    public static func decode(_ bytes: some Collection<UInt8>, maxPixelSize: Int, filter: ResamplingFilter = .lanczos3,
                              registry: DecoderRegistry = .standard,
                              options: DecodingOptions = DecodingOptions()) throws(Failure) -> Image {
        var decoder = ThumbnailDecoder(maxPixelSize: maxPixelSize, filter: filter, registry: registry, options: options)
        let appended: Result<Void, Failure>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(Failure) {
                return .success(try decoder.append(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        if let appended {
            try appended.get()
        } else {
            try withBytes(Array(bytes)) { (raw) throws(Failure) in try decoder.append(raw) }
        }
        return try decoder.finish()
    }
}

extension ThumbnailDecoder {
    /// `withUnsafeBytes` with the typed error kept.
    static func withBytes(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        let result: Result<Void, Failure> = bytes.withUnsafeBytes { raw in
            do throws(Failure) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        try result.get()
    }
}

/// Metatypes compare by identity.
private func == (lhs: any ImageDecoder.Type, rhs: any ImageDecoder.Type) -> Bool {
    ObjectIdentifier(lhs) == ObjectIdentifier(rhs)
}
