import Foundation
import GlimpseCache

extension ImagePipeline {
    /// Stage 6: the final image into memory under its variant key, with the
    /// freshness of the response it came from (kept under
    /// ``HTTPCachePolicy/respect`` only: see ``FreshnessTable``).
    func storeStage(_ image: Image, _ request: LoadRequest, freshness: HTTPFreshness? = nil) {
        configuration.cache.store(image, forKey: request.key)
        if configuration.httpCachePolicy == .respect {
            memoryFreshness.record(request.key.memoryKey, freshness: freshness, at: Date())
        }
    }

    /// The freshness of a response just received (RFC 9111 §4.2), kept under
    /// ``HTTPCachePolicy/respect`` only: `nil` under ``HTTPCachePolicy/ignore``,
    /// which never reads it.
    func freshness(of response: ImageDownloadResponse, requestTime: Date) -> HTTPFreshness? {
        guard configuration.httpCachePolicy == .respect else { return nil }
        return HTTPFreshness(headers: response.headers, requestTime: requestTime, responseTime: Date())
    }

    /// The data tier's record of a response: its validators (RFC 9110 §8.8),
    /// media type and freshness (see ``freshness(of:requestTime:)``).
    func metadata(of response: ImageDownloadResponse, _ request: LoadRequest,
                  freshness: HTTPFreshness?) -> ImageDataMetadata {
        ImageDataMetadata(etag: response.entityTag, lastModified: response.lastModified,
                           contentType: response.mimeType, originalURL: request.url.absoluteString,
                           freshness: freshness)
    }

    /// Stage 6, data half: the original bytes and their metadata under the
    /// resource key, when the policy keeps originals; awaited or in the
    /// background per ``ImageRequest/Options/waitForDiskStore``. `processedMissing`: the
    /// policy wanted the processed image but it has no encoding (an animation), so the
    /// original is kept in its place.
    func storeOriginal(_ bytes: [UInt8], metadata: ImageDataMetadata, _ request: LoadRequest,
                       processedMissing: Bool = false) async {
        guard request.storesOriginal || (processedMissing && request.storesProcessed) else { return }
        await configuration.cache.storeData(bytes, metadata: metadata, forDataKey: request.key.base,
                                            waits: request.options.contains(.waitForDiskStore))
    }

    /// Stage 6, processed half: the encoded processed image under the variant
    /// key, with the validators and freshness of the response it was made from
    /// (`source`), so that it is revalidated as that response would be.
    func storeProcessed(_ encoded: EncodedImage?, _ request: LoadRequest, source: ImageDataMetadata) async {
        guard let encoded, request.storesProcessed else { return }
        var metadata = source
        metadata.contentType = encoded.contentType
        metadata.sourceFormat = encoded.sourceFormat
        metadata.originalURL = request.url.absoluteString
        await configuration.cache.storeData(encoded.bytes, metadata: metadata, forDataKey: request.key.memoryKey,
                                            waits: request.options.contains(.waitForDiskStore))
    }
}
