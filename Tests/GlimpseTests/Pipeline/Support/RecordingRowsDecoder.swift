import Foundation
import Glimpse
import Synchronization
import GlimpseCache

/// The rows format of ``RowsTestDecoder`` under a magic of the test's choosing,
/// recording per magic how many decoders started and on which threads they
/// finished: tests see how often and where the pipeline decodes.
struct RecordingRowsDecoder: ImageDecoder {
    static let format: ImageFormat = .unknown

    struct Record: Sendable {
        var started = 0
        var bytesFed = 0
        var finishThreads: [String] = []
    }

    private static let records = Lock<[String: Record]>([:])

    static func record(_ magic: String) -> Record { records.withLock { $0[magic] ?? Record() } }

    /// `magic` must be four ASCII characters, distinct per test.
    static func encode(magic: String, width: Int, height: Int) -> [UInt8] {
        var bytes = Array(magic.utf8) + [UInt8(width), UInt8(height)]
        for index in 0..<(width * height * 4) { bytes.append(UInt8(truncatingIfNeeded: index &* 7)) }
        return bytes
    }

    /// A registry that decodes `magic` files with this decoder (and the standard formats).
    static func registry(magic: String) -> DecoderRegistry {
        var registry = DecoderRegistry.standard
        let expected = Array(magic.utf8)
        registry.register(RecordingRowsDecoder.self) { bytes in
            let prefix = Array(bytes.prefix(4))
            guard prefix == Array(expected.prefix(prefix.count)) else { return .noMatch }
            return prefix.count == 4 ? .match : .needMoreData
        }
        return registry
    }

    /// The kernel's name of the calling thread (corelibs' `Thread.current.name`
    /// does not report it).
    static func currentThreadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private var rows = RowsBuffer()
    private var magic: String?

    init(options: DecodingOptions) {}

    mutating func append(_ chunk: UnsafeRawBufferPointer) throws(ImageDecodingError) -> DecodingStatus {
        rows.append(chunk)
        if magic == nil, rows.bytes.count >= 4 {
            let name = String(decoding: rows.bytes.prefix(4), as: UTF8.self)
            magic = name
            Self.records.withLock { $0[name, default: Record()].started += 1 }
        }
        if let magic { Self.records.withLock { $0[magic, default: Record()].bytesFed += chunk.count } }
        return rows.isComplete ? .complete : .needMoreData
    }

    var info: ImageInfo? { rows.info }

    func partialImage() -> Image? { rows.partialImage() }

    mutating func finish() throws(ImageDecodingError) -> Image {
        guard let magic, let image = rows.image() else { throw .truncated }
        let thread = Self.currentThreadName()
        Self.records.withLock { $0[magic, default: Record()].finishThreads.append(thread) }
        return image
    }
}
