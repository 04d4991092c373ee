import Foundation

/// A loaded image and where it came from.
public struct ImageResult: Sendable {
    /// The decoded (and transformed) image.
    public var image: Image
    /// The encoded bytes, when they were at hand (disk and network loads): the
    /// original, or the processed image's encoding when the data tier had that.
    public var data: [UInt8]?
    public var tier: ImageTier
    /// The URL that was asked for.
    public var url: URL
    /// The HTTP response, for network loads (including a 304 revalidation).
    public var response: ImageDownloadResponse?
    /// The disk entry's metadata, for disk loads.
    public var cacheMetadata: ImageDataMetadata?
    /// Where the load spent its time and how many bytes it read (for a load that joined
    /// another one under way, the shared load's: see ``ImageTask/Metrics``). A result
    /// that measured nothing (a memory hit) reports only its ``tier``.
    public var metrics: ImageTask.Metrics {
        get { measured?.metrics ?? ImageTask.Metrics(tier: tier) }
        set { measured = Measured(metrics: newValue, encoded: measured?.encoded) }
    }

    /// The processed image as the load encoded it for the data tier, for
    /// ``ImagePipeline/data(for:format:)``: no second encode of what was just stored.
    var encoded: ImagePipeline.EncodedImage? {
        get { measured?.encoded }
        set { measured = Measured(metrics: measured?.metrics, encoded: newValue) }
    }

    /// What a load that did work adds, behind one reference: a memory hit (millions a
    /// second) then carries, copies and releases one empty pointer instead of some
    /// 500 bytes of durations and encoding it never fills in.
    private var measured: Measured?

    /// Immutable, so the result keeps value semantics: a change makes a new box.
    private final class Measured: Sendable {
        let metrics: ImageTask.Metrics?
        let encoded: ImagePipeline.EncodedImage?

        init(metrics: ImageTask.Metrics?, encoded: ImagePipeline.EncodedImage?) {
            self.metrics = metrics
            self.encoded = encoded
        }
    }

    /// - Parameter metrics: by default only `tier` (a load that measured nothing).
    public init(image: Image, data: [UInt8]? = nil, tier: ImageTier, url: URL, response: ImageDownloadResponse? = nil,
                cacheMetadata: ImageDataMetadata? = nil, metrics: ImageTask.Metrics? = nil) {
        measured = metrics.map { Measured(metrics: $0, encoded: nil) }
        self.image = image
        self.data = data
        self.tier = tier
        self.url = url
        self.response = response
        self.cacheMetadata = cacheMetadata
    }
}
