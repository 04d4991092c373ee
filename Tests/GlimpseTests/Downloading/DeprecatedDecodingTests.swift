import Foundation
import Glimpse
import LoopbackHTTPServer
import Testing

/// ``ImageDownloadRequest/decoding`` is deprecated: the transfer moves bytes and
/// the pipeline's decode stage decodes them on an executor, never on URLSession's,
/// the callback queue's or the cooperative pool's threads.
@Suite(.timeLimit(.minutes(1)))
struct DeprecatedDecodingTests {
    @available(*, deprecated, message: "tests the deprecated decoding request")
    @Test func decodingRequestsDecodeOnceOnTheDecodingExecutor() async throws {
        let magic = "DDL1"
        let harness = try DownloaderHarness.make { $0.decoderRegistry = RecordingRowsDecoder.registry(magic: magic) }
        let file = RecordingRowsDecoder.encode(magic: magic, width: 16, height: 8)
        // One row (64 bytes) every 20 ms: partial images come from the progressive feed.
        harness.server.setRoute("/p", .fixed(LoopbackHTTPServer.Response(
            body: .drip(file, chunkSize: 64, interval: .milliseconds(20)))))
        let recorder = DownloadRecorder()
        let decoding = ImageDownloadRequest.Decoding(progressive: .interval(.zero))
        recorder.start(harness.downloader, ImageDownloadRequest(url: harness.url("/p"), decoding: decoding), as: 0)
        #expect(await recorder.waitForCompletions())
        let log = recorder.log(0)
        #expect(log.result?.image?.pixels.bytes == Array(file[6...]))
        #expect(log.result?.bytes == file)
        recorder.expectEachCompletedOnce()

        let record = RecordingRowsDecoder.record(magic)
        #expect(record.started == 1, "the decoder of the partial images made the final image")
        #expect(record.bytesFed == file.count)
        #expect(record.finishThreads.count == 1 && record.finishThreads.allSatisfy { $0.hasPrefix("glimpse.dldec") },
                "\(record.finishThreads)")
        await harness.finish()
    }
}
