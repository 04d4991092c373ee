import Foundation

/// `file` URLs (opt-in through ``ImageDownloader/Configuration/allowedSchemes``),
/// read directly because corelibs' URLSession cannot load them.
extension ImageDownloader {
    /// Reads a file for a transfer that holds a slot, then finishes the
    /// transfer as a network one would.
    func loadFile(_ id: TransferID, url: URL) {
        emit(.started(url))
        let limit = configuration.maximumResponseSize
        let loaded: Result<[UInt8], ImageDownloadError>
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            if let size = attributes[.size] as? Int, size > limit {
                loaded = .failure(.tooLarge)
            } else {
                let bytes = [UInt8](try Data(contentsOf: url))
                // The file may have grown since its size was read.
                loaded = bytes.count > limit ? .failure(.tooLarge) : .success(bytes)
            }
        } catch {
            loaded = .failure(.transport(code: NSURLErrorFileDoesNotExist, message: "\(url.path): \(error.localizedDescription)"))
        }
        let (listeners, toStart): ([(TransferRegistry.CallerID, @Sendable (Int64, Int64?) -> Void)], [TransferID]) =
            state.withLock { state in
                let toStart = state.queue.finish(id)
                guard let transfer = state.registry.transfers[id], case .preparing = transfer.phase else { return ([], toStart) }
                state.registry.closeToJoiners(id)
                state.registry.update(id) { $0.phase = .processing }
                let listeners = transfer.orderedCallers.compactMap { entry in
                    entry.caller.callbacks.progress.map { (entry.id, $0) }
                }
                return (listeners, toStart)
            }
        start(toStart)
        switch loaded {
        case .failure(let error):
            emit(.stopped(url, error: error))
            fail(id, with: error)
        case .success(let bytes):
            let response = ImageDownloadResponse(url: url, statusCode: 200, headers: [:], mimeType: nil,
                                                 expectedContentLength: Int64(bytes.count))
            emit(.receivedResponse(url, statusCode: 200))
            let count = Int64(bytes.count)
            for (caller, listener) in listeners {
                deliverIfActive(caller) { listener(count, count) }
            }
            emit(.stopped(url, error: nil))
            if needsProcessing {
                postProcess(id, url: url, body: bytes, response: response)
            } else {
                finish(id, url: url, bytes: bytes, response: response)
            }
        }
    }
}
