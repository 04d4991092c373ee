extension ImageTransformers {
    /// Scales an image with a high-quality separable filter.
    ///
    /// Filtering runs on premultiplied alpha (so transparent pixels never
    /// bleed their colour into opaque neighbours) and, with ``linearLight``, on
    /// linear-light values (IEC 61966-2-1 sRGB decoding before, encoding after),
    /// which keeps fine bright detail from darkening when it is downscaled.
    ///
    /// **Speed/quality trade-off.** With ``reducingGap`` set (the default, 3),
    /// a reduction of more than 6× first averages integer boxes of
    /// ⌊ratio / gap⌋ source pixels, leaving the filter at least a 3× reduction.
    /// This is what makes a 5120 px → 256 px Lanczos resize cost little more than
    /// reading the source once; the result differs from exact filtering by
    /// about one level on photographs (Pillow's `reducing_gap` does the same).
    /// Set it to `nil` for exact filtering.
    public struct Resize: ImageTransformer, Hashable {
        /// How the source aspect ratio meets the target box.
        public enum Mode: String, Sendable, Hashable, CaseIterable {
            /// Scale to fit inside the box, keeping the aspect ratio; the output
            /// may be smaller than the box on one axis.
            case fit
            /// Scale to cover the box, keeping the aspect ratio, and crop the
            /// overflow equally on both sides; the output is exactly the box.
            case fill
            /// Scale each axis independently to exactly the box.
            case stretch
        }

        /// Target width; `nil` derives it from ``height`` and the aspect ratio.
        public var width: Int?
        /// Target height; `nil` derives it from ``width`` and the aspect ratio.
        public var height: Int?
        public var mode: Mode
        public var filter: ResamplingFilter
        /// Filter in linear light rather than on gamma-encoded samples.
        public var linearLight: Bool
        /// Whether an image smaller than the target may be enlarged. Off by
        /// default, as in every spelling (`Resize(…)`, `.resize(…)`): a smaller
        /// image keeps its size (a 6×6 icon asked for at 256 stays 6×6;
        /// ``Mode/fill`` still crops to the box's aspect ratio), because an
        /// enlarged thumbnail holds no more detail and costs the square of the
        /// scale in memory and in the cache. Set it to opt in.
        public var allowsUpscaling: Bool
        /// Whether ``transform(_:)-(Image)`` first turns the image upright as its
        /// EXIF orientation says (``AutoOrient``; TIFF 6.0 tag 0x0112), so that the
        /// target box applies to the image as displayed. On by default.
        public var appliesOrientation: Bool
        /// See the type's discussion; `nil` for exact filtering, otherwise ≥ 1.
        public var reducingGap: Double?
        /// Bounds on the output and working memory; not part of ``cacheKey``
        /// because they never change a successful result.
        public var limits: DecodingLimits

        public init(width: Int? = nil, height: Int? = nil, mode: Mode = .fit, filter: ResamplingFilter = .lanczos3,
                    linearLight: Bool = false, allowsUpscaling: Bool = false, reducingGap: Double? = 3,
                    appliesOrientation: Bool = true, limits: DecodingLimits = DecodingLimits()) {
            self.width = width
            self.height = height
            self.mode = mode
            self.filter = filter
            self.linearLight = linearLight
            self.allowsUpscaling = allowsUpscaling
            self.appliesOrientation = appliesOrientation
            self.reducingGap = reducingGap
            self.limits = limits
        }

        public var cacheKey: String {
            let w = width.map { String($0) } ?? "_"
            let h = height.map { String($0) } ?? "_"
            let gap = reducingGap.map { "\($0)" } ?? "exact"
            return "resize(\(w)x\(h),\(mode.rawValue),\(filter.rawValue),linear=\(linearLight ? 1 : 0),"
                + "upscale=\(allowsUpscaling ? 1 : 0),gap=\(gap)\(appliesOrientation ? ",orient" : ""))"
        }

        /// Where the output comes from and what size it has, for a source of
        /// `sourceWidth` × `sourceHeight`.
        struct Plan: Equatable {
            var cropX, cropY, cropWidth, cropHeight: Int
            var outputWidth, outputHeight: Int
        }

        func plan(sourceWidth: Int, sourceHeight: Int) throws(TransformError) -> Plan {
            guard sourceWidth > 0, sourceHeight > 0 else { throw .emptyImage }
            if let width, width <= 0 { throw .invalidParameter("resize width \(width)") }
            if let height, height <= 0 { throw .invalidParameter("resize height \(height)") }
            if let reducingGap, !(reducingGap >= 1 && reducingGap.isFinite) {
                throw .invalidParameter("resize reducing gap \(reducingGap)")
            }
            let sw = Double(sourceWidth), sh = Double(sourceHeight)
            var full = Plan(cropX: 0, cropY: 0, cropWidth: sourceWidth, cropHeight: sourceHeight,
                            outputWidth: sourceWidth, outputHeight: sourceHeight)
            let fitScale: Double
            switch (width, height) {
            case (nil, nil):
                throw .invalidParameter("resize needs a width or a height")
            case (let w?, nil):
                fitScale = Double(w) / sw
            case (nil, let h?):
                fitScale = Double(h) / sh
            case (let w?, let h?) where mode == .fit:
                fitScale = min(Double(w) / sw, Double(h) / sh)
            case (let w?, let h?) where mode == .stretch:
                full.outputWidth = allowsUpscaling ? w : min(w, sourceWidth)
                full.outputHeight = allowsUpscaling ? h : min(h, sourceHeight)
                return full
            case (let w?, let h?):
                // Fill: the largest centred source rectangle with the box's aspect ratio.
                let scale = max(Double(w) / sw, Double(h) / sh)
                let cropWidth = min(sourceWidth, max(1, Int((Double(w) / scale).rounded())))
                let cropHeight = min(sourceHeight, max(1, Int((Double(h) / scale).rounded())))
                full.cropX = (sourceWidth - cropWidth) / 2
                full.cropY = (sourceHeight - cropHeight) / 2
                full.cropWidth = cropWidth
                full.cropHeight = cropHeight
                full.outputWidth = allowsUpscaling || scale <= 1 ? w : cropWidth
                full.outputHeight = allowsUpscaling || scale <= 1 ? h : cropHeight
                return full
            }
            let scale = allowsUpscaling ? fitScale : min(1, fitScale)
            full.outputWidth = try Self.dimension(sw * scale, limit: limits.maxWidth, .width)
            full.outputHeight = try Self.dimension(sh * scale, limit: limits.maxHeight, .height)
            return full
        }

        /// Rounds a computed size, refusing it before it can overflow `Int`.
        private static func dimension(_ value: Double, limit: Int, _ which: DecodingLimits.Limit) throws(TransformError) -> Int {
            let rounded = value.rounded()
            guard rounded <= Double(limit) else { throw .limitExceeded(which) }
            return max(1, Int(rounded))
        }

        public func transform(_ image: Image) throws(TransformError) -> Image {
            var image = image
            if appliesOrientation, image.metadata.orientation != .up {
                image = try AutoOrient().transform(image)
            }
            let plan = try plan(sourceWidth: image.width, sourceHeight: image.height)
            return try transformEachFrame(image, outputWidth: plan.outputWidth, outputHeight: plan.outputHeight,
                                          limits: limits)
        }

        public func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer {
            try pixels.checkTransformable()
            let plan = try plan(sourceWidth: pixels.width, sourceHeight: pixels.height)
            if plan.outputWidth == pixels.width && plan.outputHeight == pixels.height
                && plan.cropWidth == pixels.width && plan.cropHeight == pixels.height {
                return pixels
            }
            let resampler = Resampler(filter: filter, linearLight: linearLight, reducingGap: reducingGap, limits: limits)
            return try resampler.resample(pixels, x: plan.cropX, y: plan.cropY,
                                          width: plan.cropWidth, height: plan.cropHeight,
                                          outputWidth: plan.outputWidth, outputHeight: plan.outputHeight)
        }
    }
}
