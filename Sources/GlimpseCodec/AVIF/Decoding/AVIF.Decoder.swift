extension AVIF {
    /// The incremental AVIF decoder (ISO/IEC 23008-12 container, AV1 headers), following
    /// the ``ImageDecoder`` contract as far as AV1 decoding is implemented today: ``info``
    /// (the size after `clap` and `irot`, bit depth, alpha, colour description, Exif and
    /// XMP, the frame count of a sequence) as soon as `meta` has arrived; ``append(_:)``
    /// returns ``DecodingStatus/needMoreData`` until the primary image's data (every tile,
    /// and the alpha image) has arrived and its sequence and frame headers are checked,
    /// then ``DecodingStatus/complete``. ``finish()`` then throws
    /// ``ImageDecodingError/unsupported(_:)`` with ``AVIF/UnsupportedFeature/av1TileDecoding``:
    /// no pixels are produced yet. Damage is a typed ``ImageDecodingError/malformed(_:)``
    /// (``AVIF/Defect``), a file cut short ``ImageDecodingError/truncated``.
    public struct Decoder: ImageDecoder {
        public static var format: ImageFormat { .avif }

        private let options: DecodingOptions
        private let containerLimits = ContainerLimits.standard
        private var file: [UInt8] = []
        private var boxes = TopLevelBoxes()
        private var meta: MetaBox?
        private var primary: PrimaryImage?
        private var movieFrameCount: Int??
        /// The colour image's first coded item, once its data has arrived and been checked.
        public private(set) var codedImage: CodedImage?
        private var metadata = ImageMetadata()
        private var failure: ImageDecodingError?
        private var isComplete = false

        public init(options: DecodingOptions) {
            self.options = options
        }

        public var info: ImageInfo? {
            guard let primary else { return nil }
            var metadata = self.metadata
            metadata.iccProfile = primary.iccProfile
            metadata.cicp = primary.codePoints ?? codedImage?.sequenceHeader.color.codePoints
            let isSequence = boxes.fileType?.isSequence == true
            let frames: Int? = isSequence ? (movieFrameCount ?? nil) : 1
            return ImageInfo(format: .avif, width: primary.displayWidth, height: primary.displayHeight, frameCount: frames,
                             isAnimated: isSequence && (frames ?? 2) > 1,
                             bitDepth: codedImage?.sequenceHeader.color.bitDepth ?? primary.color.configuration.bitDepth,
                             hasAlpha: primary.alpha != nil, metadata: metadata)
        }

        /// Whether the alpha image is premultiplied (`prem`); `nil` before ``info``, or without alpha.
        public var isAlphaPremultiplied: Bool? {
            primary?.alpha == nil ? nil : primary?.isAlphaPremultiplied
        }

        public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
            if let failure { throw failure }
            if isComplete { return .complete }
            do throws(ImageDecodingError) {
                try options.limits.checkBytes(bytes.count, alreadyUsed: file.count)
                file.append(contentsOf: bytes)
                try advance(atEnd: false)
            } catch {
                failure = error
                throw error
            }
            return isComplete ? .complete : .needMoreData
        }

        public func partialImage() -> Image? { nil }

        public mutating func finish() throws(ImageDecodingError) -> Image {
            if let failure { throw failure }
            let error: ImageDecodingError
            do throws(ImageDecodingError) {
                try advance(atEnd: true)
                error = endOfInputError()
            } catch let thrown {
                error = thrown
            }
            failure = error
            throw error
        }

        /// Why the input, now ended, gives no image.
        private func endOfInputError() -> ImageDecodingError {
            if codedImage != nil { return .avif(.av1TileDecoding) }
            if boxes.meta == nil, boxes.fileType != nil, boxes.endsCleanly(at: file.count) {
                if boxes.movie != nil && boxes.fileType?.isSequence == true { return .avif(.imageSequenceWithoutPrimaryItem) }
                return .avif(.missing(type: .meta, parent: nil))
            }
            return .truncated
        }

        /// Parses whatever the bytes so far complete: the top-level boxes, `meta`, `moov`,
        /// the primary image, then its coded data and metadata items.
        private mutating func advance(atEnd: Bool) throws(ImageDecodingError) {
            try boxes.scan(file)
            if meta == nil, let header = TopLevelBoxes.arrived(boxes.meta, in: file, atEnd: atEnd) {
                meta = try MetaBox(file, header, limits: containerLimits)
            }
            if movieFrameCount == nil, let header = TopLevelBoxes.arrived(boxes.movie, in: file, atEnd: atEnd) {
                let count = try MovieBox(file, header).frameCount
                if let count { try options.limits.checkFrames(count) }
                movieFrameCount = .some(count)
            }
            guard let meta else { return }
            if primary == nil {
                primary = try PrimaryImage(meta: meta, file: file, limits: options.limits, containerLimits: containerLimits)
            }
            guard let primary else { return }
            if codedImage == nil {
                for id in primary.codedItems {
                    guard try ImageItem.hasArrived(id, meta: meta, count: file.count, limits: options.limits) else { return }
                }
                if let alpha = primary.alpha, alpha.width != primary.color.width || alpha.height != primary.color.height {
                    throw .avif(.auxiliarySize)
                }
                var first: CodedImage?
                for image in [primary.color] + (primary.alpha.map { [$0] } ?? []) {
                    for id in image.codedItems {
                        guard let data = try ImageItem.data(of: id, meta: meta, file: file, limits: options.limits) else { return }
                        let coded = try CodedImage(data, configuration: configuration(of: id, meta: meta) ?? image.configuration,
                                                   operatingPoint: Self.operatingPoint(image.properties))
                        if first == nil { first = coded }
                    }
                }
                codedImage = first
            }
            for (id, isExif) in [(primary.exifItem, true), (primary.xmpItem, false)] {
                guard let id, (isExif ? metadata.exif : metadata.xmp) == nil else { continue }
                guard let data = try ImageItem.data(of: id, meta: meta, file: file, limits: options.limits) else { return }
                if isExif { metadata.exif = PrimaryImage.exifPayload(data) ?? [] } else { metadata.xmp = data }
            }
            let sequenceDone = boxes.fileType?.isSequence != true || movieFrameCount != nil
            isComplete = codedImage != nil && sequenceDone
        }

        private func configuration(of id: UInt32, meta: MetaBox) -> CodecConfiguration? {
            for (property, _) in meta.properties(of: id) {
                if case .av1Configuration(let record) = property { return record }
            }
            return nil
        }

        private static func operatingPoint(_ properties: [Property]) -> Int? {
            for property in properties {
                if case .operatingPoint(let index) = property { return index }
            }
            return nil
        }
    }
}
