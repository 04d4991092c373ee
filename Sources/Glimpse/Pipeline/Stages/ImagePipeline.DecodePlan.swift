extension ImagePipeline {
    /// How the decode unit turns an original into pixels for a request, and
    /// which of the request's processors are left to run on the result.
    ///
    /// When the processors begin with a reducing resize (``ImageTransformers/Resize``,
    /// fit or fill, never enlarging), the original is decoded no larger than it
    /// has to be:
    /// - JPEG at the smallest DCT scale (ITU T.81 §A.3.3 blocks reduced to 4×4,
    ///   2×2 or 1×1: ``DecodingOptions/scaleDenominator``) that still covers the
    ///   resize's output in both orientations, skipping the progressive scans no
    ///   pixel then depends on; the whole resize then runs on that. Every size
    ///   that needs the same scale shares one decode.
    /// - PNG (not animated) fitted by its long side (a square box, or a width or height
    ///   that limits the long side, as `.resize(width: 256)` does for a landscape image):
    ///   rows streamed into the resize (``ThumbnailDecoder``), which replaces the first
    ///   processor; that square box then scales by exactly the factor the resize would.
    struct DecodePlan: Hashable, Sendable {
        enum Method: Hashable, Sendable {
            /// The whole image (reduced only to `maximumPixelBytes`, when set: ``DecodeStage``).
            case full(maximumPixelBytes: Int?)
            /// A JPEG at 1/`denominator` size.
            case scaledJPEG(denominator: Int)
            /// A thumbnail inside a `box`-pixel square, decoded and resized together.
            case thumbnail(box: Int, filter: ResamplingFilter)
        }

        var method: Method
        var options: DecodingOptions

        /// Whether the method already did the first processor's work.
        var consumesFirstProcessor: Bool {
            if case .thumbnail = method { return true }
            return false
        }

        /// The plan for `bytes` of `request`: reduced when the format and the first
        /// processor allow it and nothing must see the full-size image (the
        /// downloaded-image hook, a pixel budget).
        static func make(for bytes: [UInt8], _ request: LoadRequest, options: DecodingOptions,
                         registry: DecoderRegistry, hasDownloadedImageHook: Bool) -> DecodePlan {
            let full = DecodePlan(method: .full(maximumPixelBytes: request.request.maximumPixelBytes), options: options)
            guard request.request.maximumPixelBytes == nil, !hasDownloadedImageHook,
                  let resize = request.request.processors.first as? ImageTransformers.Resize,
                  resize.mode != .stretch, !resize.allowsUpscaling,
                  let info = DecodeStage.probe(bytes, registry: registry) else { return full }
            switch info.format {
            case .jpeg:
                guard let denominator = jpegDenominator(resize, width: info.width, height: info.height),
                      denominator > 1 else { return full }
                var scaled = options
                scaled.scaleDenominator = denominator
                // At 1/8 each block is its DC coefficient: the AC scans change no pixel.
                scaled.skipsUnusedScans = denominator == 8
                return DecodePlan(method: .scaledJPEG(denominator: denominator), options: scaled)
            case .png:
                guard resize.mode == .fit, let box = squareBox(resize, width: info.width, height: info.height, bytes),
                      box > 0, !resize.linearLight, resize.reducingGap == 3, resize.appliesOrientation,
                      !info.isAnimated, !PNGChunks.isAnimated(bytes),
                      max(info.width, info.height) > box else { return full }
                return DecodePlan(method: .thumbnail(box: box, filter: resize.filter), options: options)
            default:
                return full
            }
        }

        /// The side of the square box that fits a `width` × `height` PNG exactly as `resize`
        /// does (a fit scales by min(w / width, h / height), a box B by B / max(width, height)):
        /// a square `resize`, or a width or height that is the limiting one and lies along the
        /// long side. `nil` for the rest (a portrait image given only a width), and when an
        /// `eXIf` chunk may turn which side is long.
        static func squareBox(_ resize: ImageTransformers.Resize, width: Int, height: Int, _ bytes: [UInt8]) -> Int? {
            if let w = resize.width, resize.height == w { return w }
            guard width > 0, height > 0, !PNGChunks.hasExif(bytes) else { return nil }
            let widthLimits: Bool
            switch (resize.width, resize.height) {
            case (nil, nil): return nil
            case (_?, nil): widthLimits = true
            case (nil, _?): widthLimits = false
            case (let w?, let h?): widthLimits = Double(w) / Double(width) <= Double(h) / Double(height)
            }
            if widthLimits { return width >= height ? resize.width : nil }
            return height >= width ? resize.height : nil
        }

        /// The largest JPEG scale denominator (2, 4 or 8) whose image still covers what
        /// `resize` makes of a `width` × `height` source, whichever way EXIF turns it.
        static func jpegDenominator(_ resize: ImageTransformers.Resize, width: Int, height: Int) -> Int? {
            guard width > 0, height > 0 else { return nil }
            let upright = reduction(resize, width: Double(width), height: Double(height))
            let turned = reduction(resize, width: Double(height), height: Double(width))
            guard let upright, let turned else { return nil }
            let scale = max(upright, turned)
            guard scale > 0, scale < 1 else { return nil }
            for denominator in [8, 4, 2] where Double(denominator) * scale <= 1 { return denominator }
            return nil
        }

        /// The factor the resize scales a `width` × `height` source by (at most 1).
        private static func reduction(_ resize: ImageTransformers.Resize, width: Double, height: Double) -> Double? {
            let scale: Double
            switch (resize.width, resize.height) {
            case (nil, nil): return nil
            case (let w?, nil): scale = Double(w) / width
            case (nil, let h?): scale = Double(h) / height
            case (let w?, let h?):
                scale = resize.mode == .fill ? max(Double(w) / width, Double(h) / height)
                    : min(Double(w) / width, Double(h) / height)
            }
            guard scale.isFinite, scale > 0 else { return nil }
            return min(1, scale)
        }
    }
}
