/// An incremental decoder for a file of any registered format: it buffers the
/// leading bytes until the registry can tell the format, then hands them and
/// everything after to the chosen decoder.
///
/// It keeps the ``ImageDecoder`` guarantees: any chunking gives the same
/// result, and errors are permanent.
public struct AutoDecoder: Sendable {
    private enum State: Sendable {
        case sniffing([UInt8])
        case decoding(any ImageDecoder)
        case failed(ImageDecodingError)
    }

    private let registry: DecoderRegistry
    private let options: DecodingOptions
    private var state: State = .sniffing([])
    /// The format, once sniffed.
    public private(set) var format: SniffedFormat?

    public init(registry: DecoderRegistry = .standard, options: DecodingOptions = DecodingOptions()) {
        self.registry = registry
        self.options = options
    }

    /// Feeds the next bytes.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(ImageDecodingError) -> DecodingStatus {
        switch state {
        case .failed(let error):
            throw error
        case .decoding(var decoder):
            // Drop the state's reference first: otherwise the decoder's buffers are
            // shared and every append copies them (copy-on-write), which makes
            // chunked decoding quadratic in the image size.
            state = .sniffing([])
            return try feed(&decoder, bytes)
        case .sniffing(var buffered):
            // Same reason: release the state's copy before appending.
            state = .sniffing([])
            if buffered.isEmpty, let status = try routeInPlace(bytes) { return status }
            buffered.append(contentsOf: bytes)
            return try route(buffered, atEnd: false)
        }
    }

    /// The first bytes, when they are contiguous and tell the format: handed to
    /// the chosen decoder where they lie, without the copy that buffering them
    /// would cost (a whole file, for one-shot decoding). `nil` when they must
    /// be buffered: not contiguous, or too few to tell the format.
    private mutating func routeInPlace(_ bytes: some Collection<UInt8>) throws(ImageDecodingError) -> DecodingStatus? {
        let registry = self.registry
        let selected: Result<DecoderRegistry.Selection, ImageDecodingError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(ImageDecodingError) {
                return .success(try registry.select(UnsafeRawBufferPointer(buffer), atEnd: false))
            } catch {
                return .failure(error)
            }
        }
        let selection: DecoderRegistry.Selection
        switch selected {
        case nil: return nil
        case .failure(let error):
            state = .failed(error)
            throw error
        case .success(let chosen): selection = chosen
        }
        guard case .decoder(let type, let sniffed) = selection else { return nil }
        return try start(type, format: sniffed, with: bytes)
    }

    /// Header information from the chosen decoder.
    public var info: ImageInfo? {
        if case .decoding(let decoder) = state { return decoder.info }
        return nil
    }

    /// What has been decoded so far.
    public func partialImage() -> Image? {
        if case .decoding(let decoder) = state { return decoder.partialImage() }
        return nil
    }

    /// Ends the input and returns the image.
    public mutating func finish() throws(ImageDecodingError) -> Image {
        if case .sniffing(let buffered) = state {
            guard !buffered.isEmpty else {
                state = .failed(.truncated)
                throw .truncated
            }
            _ = try route(buffered, atEnd: true)
        }
        switch state {
        case .failed(let error):
            throw error
        case .sniffing:
            state = .failed(.truncated)
            throw .truncated
        case .decoding(var decoder):
            state = .sniffing([])
            do throws(ImageDecodingError) {
                var image = try decoder.finish()
                state = .decoding(decoder)
                options.colorPolicy.apply(to: &image)
                return image
            } catch {
                state = .failed(error)
                throw error
            }
        }
    }

    private mutating func route(_ buffered: [UInt8], atEnd: Bool) throws(ImageDecodingError) -> DecodingStatus {
        let selection: DecoderRegistry.Selection
        do throws(ImageDecodingError) {
            selection = try buffered.withDecodingBytes { (raw) throws(ImageDecodingError) in try registry.select(raw, atEnd: atEnd) }
        } catch {
            state = .failed(error)
            throw error
        }
        switch selection {
        case .needMoreData:
            state = .sniffing(buffered)
            return .needMoreData
        case .decoder(let type, let sniffed):
            return try start(type, format: sniffed, with: buffered)
        }
    }

    private mutating func start(_ type: any ImageDecoder.Type, format sniffed: SniffedFormat,
                                with bytes: some Collection<UInt8>) throws(ImageDecodingError) -> DecodingStatus {
        format = sniffed
        var decoder = type.init(options: options)
        return try feed(&decoder, bytes)
    }

    /// Appends `bytes` to `decoder` and keeps it as the state, or keeps its error
    /// (errors are permanent). `inout`, so that no second copy of the decoder
    /// shares its buffers while it appends.
    private mutating func feed(_ decoder: inout any ImageDecoder, _ bytes: some Collection<UInt8>) throws(ImageDecodingError)
        -> DecodingStatus {
        do throws(ImageDecodingError) {
            let status = try decoder.append(bytes)
            state = .decoding(decoder)
            return status
        } catch {
            state = .failed(error)
            throw error
        }
    }
}
