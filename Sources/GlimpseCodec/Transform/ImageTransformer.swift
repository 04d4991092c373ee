/// Something that turns one image into another: a resize, a crop, a blur…
///
/// Transformers are small `Sendable` values that hold only their parameters,
/// so the same one can be applied from any task. Each has a ``cacheKey`` that
/// names it together with all of its parameters: two transformers with equal
/// keys produce equal output for equal input, which is what lets a cache store
/// transformed variants side by side with the original.
///
/// Implement ``transform(_:)-(PixelBuffer)`` for a per-pixel-buffer operation;
/// the default ``transform(_:)-(Image)`` then applies it to every frame of an
/// animation and keeps durations, loop count and metadata. Transformers that
/// depend on metadata (``ImageTransformers/AutoOrient``) override the image form.
///
/// Transformers never crash on bad parameters or huge images: they validate
/// before allocating and throw ``TransformError``.
public protocol ImageTransformer: Sendable {
    /// A stable identifier of this transformer and its parameters, formatted
    /// deterministically (the same on every run and platform).
    var cacheKey: String { get }

    /// Transforms one frame's pixels.
    func transform(_ pixels: PixelBuffer) throws(TransformError) -> PixelBuffer

    /// Transforms a whole image: every frame of an animation.
    func transform(_ image: Image) throws(TransformError) -> Image
}

extension ImageTransformer {
    public func transform(_ image: Image) throws(TransformError) -> Image {
        try transformEachFrame(image)
    }

    /// ``transform(_:)-(PixelBuffer)`` applied to every frame; durations, loop
    /// count and metadata are kept.
    func transformEachFrame(_ image: Image) throws(TransformError) -> Image {
        guard !image.frames.isEmpty else { throw .emptyImage }
        var result = image
        for index in result.frames.indices {
            result.frames[index].pixels = try transform(image.frames[index].pixels)
        }
        return result
    }

    /// For transformers that can enlarge frames: checks that all frames at
    /// `width` × `height` fit `limits` together before the first is made, so a
    /// long animation cannot exhaust memory one allowed frame at a time.
    func transformEachFrame(_ image: Image, outputWidth width: Int, outputHeight height: Int,
                            limits: DecodingLimits) throws(TransformError) -> Image {
        guard let first = image.frames.first else { throw .emptyImage }
        if image.frames.count > 1 {
            try limits.checkTransformOutput(width: width, height: height, format: first.pixels.format,
                                            frames: image.frames.count)
        }
        return try transformEachFrame(image)
    }
}

/// The concrete transformers. Each is a value holding its parameters; combine
/// them with ``Composition``.
public enum ImageTransformers {}
