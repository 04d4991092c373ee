extension AVIF {
    /// The incremental AVIF decoder (ISO/IEC 23008-12 container, AV1 intra decoding), following
    /// the ``ImageDecoder`` contract: ``info`` (the size after `clap` and `irot`, bit depth,
    /// alpha, colour description, Exif and XMP, the frame count of a sequence) as soon as `meta`
    /// has arrived; ``append(_:)`` returns ``DecodingStatus/needMoreData`` until the primary
    /// image's data (every tile, and the alpha image) has arrived and its sequence and frame
    /// headers are checked, then ``DecodingStatus/complete``. ``finish()`` decodes the AV1
    /// frames and gives the image as libavif's users see it (straight-alpha RGBA, ``AVIF/YUVToRGB``)
    /// with `clap`, `irot` and `imir` applied; ``decodePlanes(applyingFilmGrain:)`` gives the
    /// decoded YUV planes themselves, identical to dav1d's. Damage is a typed
    /// ``ImageDecodingError/malformed(_:)`` (``AVIF/Defect``), a file cut short
    /// ``ImageDecodingError/truncated``.
    public struct Decoder: ImageDecoder {
        public static var format: ImageFormat { .avif }

        let options: DecodingOptions
        private let containerLimits = ContainerLimits.standard
        private var file: [UInt8] = []
        private var boxes = TopLevelBoxes()
        private var meta: MetaBox?
        private(set) var primary: PrimaryImage?
        private var movieFrameCount: Int??
        /// The colour image's first coded item, once its data has arrived and been checked.
        public private(set) var codedImage: CodedImage?
        /// Every coded item of the colour image (the cells of a grid) and of the alpha image,
        /// in that order, with the sequence header it is decoded with: what the tile decoder reads.
        private(set) var codedItems: [(id: UInt32, data: [UInt8], sequence: SequenceHeader)] = []
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
            do throws(ImageDecodingError) {
                try advance(atEnd: true)
                guard codedImage != nil else { throw endOfInputError() }
                // The image's data is in but an Exif or XMP item, or the movie box of a sequence,
                // was cut off: the pixels are whole, so a lenient decoder gives them.
                if !isComplete && options.mode == .strict { throw .truncated }
                return try decodeImage(metadata: metadata)
            } catch {
                failure = error
                throw error
            }
        }

        /// Why the input, now ended, gives no image.
        private func endOfInputError() -> ImageDecodingError {
            if boxes.meta == nil, boxes.fileType != nil, boxes.endsCleanly(at: file.count) {
                if boxes.movie != nil && boxes.fileType?.isSequence == true { return .avif(.imageSequenceWithoutPrimaryItem) }
                return .avif(.missing(type: .meta, parent: nil))
            }
            return .truncated
        }

        /// The parsing steps, each run once the bytes it needs have arrived.
        private enum Step {
            case scan, meta, movie, primary, codedData, metadataItems
        }

        /// Runs every step the bytes so far allow, always the one needing the fewest bytes
        /// first, and stops at completion: so the steps run, and the first error is met, in
        /// the same order whatever the chunking (a one-shot decode sees the same sequence).
        private mutating func advance(atEnd: Bool) throws(ImageDecodingError) {
            while !isComplete, let step = try nextStep(atEnd: atEnd) {
                let before = fingerprint
                try run(step, atEnd: atEnd)
                // Every step reads a header, parses a box or fills a field once its bytes are
                // in; one that did not would run again forever.
                guard fingerprint != before else { break }
                let sequenceDone = boxes.fileType?.isSequence != true || movieFrameCount != nil
                isComplete = codedImage != nil && metadataDone && sequenceDone
            }
        }

        private var fingerprint: [Int] {
            let scan = boxes.progress
            return [scan.0 ?? -1, scan.1 ?? -1, meta == nil ? 0 : 1, movieFrameCount == nil ? 0 : 1, primary == nil ? 0 : 1,
                    codedImage == nil ? 0 : 1, metadata.exif == nil ? 0 : 1, metadata.xmp == nil ? 0 : 1]
        }

        private var metadataDone: Bool {
            guard let primary else { return false }
            return (primary.exifItem == nil || metadata.exif != nil) && (primary.xmpItem == nil || metadata.xmp != nil)
        }

        private func nextStep(atEnd: Bool) throws(ImageDecodingError) -> Step? {
            var best: (need: Int, step: Step)?
            func consider(_ need: Int?, _ step: Step) {
                guard let need, need <= file.count else { return }
                if let current = best, current.need <= need { return }
                best = (need, step)
            }
            let isSequence = boxes.fileType?.isSequence == true
            if boxes.fileType == nil || boxes.meta == nil || (isSequence && boxes.movie == nil) {
                consider(boxes.nextNeed(file), .scan)
            }
            if meta == nil, let header = boxes.meta { consider(Self.need(header, atEnd: atEnd, count: file.count), .meta) }
            if movieFrameCount == nil, let header = boxes.movie { consider(Self.need(header, atEnd: atEnd, count: file.count), .movie) }
            guard let meta else { return best?.step }
            guard let primary else {
                consider(try PrimaryImage.resolutionNeed(meta: meta, limits: options.limits), .primary)
                return best?.step
            }
            if codedImage == nil {
                var need = 0
                for id in primary.codedItems { need = max(need, try ImageItem.dataEnd(id, meta: meta, limits: options.limits)) }
                consider(need, .codedData)
            } else if !metadataDone {
                var need = 0
                for id in [primary.exifItem, primary.xmpItem].compactMap({ $0 }) {
                    need = max(need, try ImageItem.dataEnd(id, meta: meta, limits: options.limits))
                }
                consider(need, .metadataItems)
            }
            return best?.step
        }

        /// The bytes a box held whole needs; a box of size 0 ends with the input.
        private static func need(_ header: BoxHeader, atEnd: Bool, count: Int) -> Int? {
            header.extendsToEnd ? (atEnd ? count : nil) : header.end
        }

        private mutating func run(_ step: Step, atEnd: Bool) throws(ImageDecodingError) {
            switch step {
            case .scan:
                try boxes.scanOne(file)
            case .meta:
                guard let header = TopLevelBoxes.arrived(boxes.meta, in: file, atEnd: atEnd) else { return }
                meta = try MetaBox(file, header, limits: containerLimits)
            case .movie:
                guard let header = TopLevelBoxes.arrived(boxes.movie, in: file, atEnd: atEnd) else { return }
                let count = try MovieBox(file, header).frameCount
                if let count { try options.limits.checkFrames(count) }
                movieFrameCount = .some(count)
            case .primary:
                guard let meta else { return }
                primary = try PrimaryImage(meta: meta, file: file, limits: options.limits, containerLimits: containerLimits)
                if primary == nil { throw .avif(.extentOutsideData(item: meta.primaryItemID)) }
            case .codedData:
                try checkCodedData()
            case .metadataItems:
                guard let meta, let primary else { return }
                if let id = primary.exifItem, let data = try ImageItem.data(of: id, meta: meta, file: file, limits: options.limits) {
                    metadata.exif = PrimaryImage.exifPayload(data) ?? []
                }
                if let id = primary.xmpItem, let data = try ImageItem.data(of: id, meta: meta, file: file, limits: options.limits) {
                    metadata.xmp = data
                }
            }
        }

        /// The sequence and first frame headers of every coded item of the colour and alpha images.
        private mutating func checkCodedData() throws(ImageDecodingError) {
            guard let meta, let primary else { return }
            if let alpha = primary.alpha, alpha.width != primary.color.width || alpha.height != primary.color.height {
                throw .avif(.auxiliarySize)
            }
            var first: CodedImage?
            for image in [primary.color] + (primary.alpha.map { [$0] } ?? []) {
                for id in image.codedItems {
                    guard let data = try ImageItem.data(of: id, meta: meta, file: file, limits: options.limits) else {
                        throw .avif(.extentOutsideData(item: id))
                    }
                    let coded = try CodedImage(data, configuration: configuration(of: id, meta: meta) ?? image.configuration,
                                               operatingPoint: Self.operatingPoint(image.properties))
                    if first == nil { first = coded }
                    codedItems.append((id, data, coded.sequenceHeader))
                }
            }
            codedImage = first
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
