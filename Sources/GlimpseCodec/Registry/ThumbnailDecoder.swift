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

    private enum Phase: Sendable {
        /// Until the header is known: `buffered` holds the bytes so far, `probe` reads them for it.
        case probing
        case whole
        case rows
        case failed(Failure)
    }

    public let maxPixelSize: Int
    public let resize: ImageTransformers.Resize
    private let registry: DecoderRegistry
    private let options: DecodingOptions
    private var phase = Phase.probing
    // The work of each phase, in optionals rather than enum payloads: taken out with
    // `guard var … ; property = nil`, a decoder's buffers stay uniquely referenced while
    // it runs (a payload bound in a `switch` is shared with the switch's copy, and every
    // append would copy a progressive JPEG's coefficients).
    private var buffered: [UInt8] = []
    private var probe: AutoDecoder?
    /// The format's own decoder (not an ``AutoDecoder``, whose state enum shares
    /// the decoder with the `switch` that takes it out, so that each append copied a
    /// progressive JPEG's coefficients).
    private var whole: (any ImageDecoder)?
    private var rowDecoder: PNG.RowDecoder?
    private var stream: ImageTransformers.Resize.RowStream?

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
        probe = AutoDecoder(registry: registry, options: options)
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
        do throws(Failure) {
            try advance(bytes)
        } catch {
            phase = .failed(error)
            throw error
        }
    }

    private mutating func advance(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        switch phase {
        case .failed(let error):
            throw error
        case .probing:
            guard var probe else { throw .decoding(.truncated) }
            self.probe = nil
            // Small pieces, so that the probe stops at the header rather than start on the
            // image (a progressive JPEG's first scan would allocate all its coefficients).
            var offset = 0
            while probe.info == nil && offset < bytes.count {
                let end = min(bytes.count, offset + 64)
                do {
                    _ = try probe.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                } catch {
                    throw .decoding(error)
                }
                offset = end
            }
            guard let info = probe.info else {
                buffered.append(contentsOf: bytes)
                self.probe = probe
                return
            }
            // The header is known: choose the path, and give it every byte so far. The probe
            // goes first, with whatever it allocated.
            let format = probe.format
            probe = AutoDecoder(registry: registry, options: options)
            let earlier = buffered
            buffered = []
            try start(info: info, format: format, with: earlier, then: bytes)
        case .whole:
            guard var decoder = whole else { throw .decoding(.truncated) }
            whole = nil
            do { _ = try decoder.append(bytes) } catch { throw .decoding(error) }
            whole = decoder
        case .rows:
            guard var decoder = rowDecoder else { throw .decoding(.truncated) }
            rowDecoder = nil
            var stream = self.stream
            self.stream = nil
            try Self.feedRows(&decoder, &stream, bytes, resize)
            rowDecoder = decoder
            self.stream = stream
        }
    }

    private mutating func start(info: ImageInfo, format: SniffedFormat?, with buffered: [UInt8],
                                then bytes: UnsafeRawBufferPointer) throws(Failure) {
        if format?.format == .png, let png = registry.decoder(for: .png), png == PNG.Decoder.self {
            var decoder = PNG.RowDecoder(options: options)
            var stream: ImageTransformers.Resize.RowStream?
            let resize = self.resize
            try Self.withBytes(buffered) { (raw) throws(Failure) in try Self.feedRows(&decoder, &stream, raw, resize) }
            try Self.feedRows(&decoder, &stream, bytes, resize)
            rowDecoder = decoder
            self.stream = stream
            phase = .rows
            return
        }
        var options = self.options
        if format?.format == .jpeg {
            options.scaleDenominator = Self.scaleDenominator(width: info.width, height: info.height, box: maxPixelSize)
        }
        // The decoder the registry picks for these leading bytes (they sufficed for the probe).
        var leading = buffered
        leading.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, 1 << 16)]))
        let selection: DecoderRegistry.Selection
        do {
            selection = try Self.select(registry, leading)
        } catch {
            throw .decoding(error)
        }
        guard case .decoder(let type, _) = selection else { throw .decoding(.truncated) }
        var decoder = type.init(options: options)
        do {
            if !buffered.isEmpty { _ = try decoder.append(buffered) }
            _ = try decoder.append(bytes)
        } catch {
            throw .decoding(error)
        }
        whole = decoder
        phase = .whole
    }

    private static func select(_ registry: DecoderRegistry, _ bytes: [UInt8]) throws(ImageDecodingError) -> DecoderRegistry.Selection {
        let result: Result<DecoderRegistry.Selection, ImageDecodingError> = bytes.withUnsafeBytes { raw in
            do throws(ImageDecodingError) { return .success(try registry.select(raw, atEnd: false)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func feedRows(_ decoder: inout PNG.RowDecoder, _ stream: inout ImageTransformers.Resize.RowStream?,
                                 _ bytes: UnsafeRawBufferPointer, _ resize: ImageTransformers.Resize) throws(Failure) {
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
        let image: Image
        do throws(Failure) {
            image = try finishPhase()
            phase = .failed(.decoding(.truncated))
        } catch {
            phase = .failed(error)
            throw error
        }
        // Converting the thumbnail rather than the source costs a fraction; CMYK JPEGs were converted while decoding.
        var converted = image
        options.colorPolicy.apply(to: &converted)
        do {
            return try ImageTransformers.AutoOrient().transform(converted)
        } catch {
            phase = .failed(.transform(error))
            throw .transform(error)
        }
    }

    private mutating func finishPhase() throws(Failure) -> Image {
        switch phase {
        case .failed(let error):
            throw error
        case .probing:
            // The header never came complete: the decoder says why.
            var decoder = AutoDecoder(registry: registry, options: options)
            let image: Image
            do {
                _ = try decoder.append(buffered)
                image = try decoder.finish()
            } catch {
                throw .decoding(error)
            }
            return try resized(image)
        case .whole:
            guard var decoder = whole else { throw .decoding(.truncated) }
            whole = nil
            let image: Image
            do { image = try decoder.finish() } catch { throw .decoding(error) }
            return try resized(image)
        case .rows:
            guard var decoder = rowDecoder else { throw .decoding(.truncated) }
            rowDecoder = nil
            var stream = self.stream
            self.stream = nil
            var failure: TransformError?
            let outcome: PNG.RowDecoder.Outcome
            let resize = self.resize
            do {
                outcome = try decoder.finish { rows in Self.take(rows, resize, &stream, &failure) }
            } catch {
                throw .decoding(error)
            }
            if let failure { throw .transform(failure) }
            switch outcome {
            case .image(let whole):
                return try resized(whole)
            case .streamed(let rowsDecoded, let metadata, let warnings):
                guard let stream else { throw .decoding(.truncated) }
                let complete = rowsDecoded >= stream.sourceHeight
                return Image(frames: [ImageFrame(pixels: stream.finish(), isComplete: complete)], format: .png,
                             metadata: metadata, warnings: warnings)
            }
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
