import Foundation
import Testing
import TestSupport
@testable import GlimpseCodec

/// Damaged tile data: truncated and byte-flipped, the tile syntax answers with a typed error
/// (or, for a flip the syntax cannot see, parses), never traps or hangs; and the frame's
/// size is bounded by the limits before the per-4×4 arrays are allocated.
@Suite struct AVIFTileHostileTests {
    /// A small corpus file's colour item (the smallest 8-bit 4:2:0 fox).
    static let item: (data: [UInt8], sequence: AVIF.SequenceHeader)? = {
        guard let url = Fixtures.corpus("avif/link-u/fox.profile0.8bpc.yuv420.avif"),
              let bytes = try? Fixtures.bytes(at: url) else { return nil }
        var decoder = AVIF.Decoder(options: DecodingOptions())
        _ = try? decoder.append(bytes)
        return decoder.codedItems.first.map { ($0.data, $0.sequence) }
    }()

    static func parse(_ data: [UInt8], limits: DecodingLimits = DecodingLimits()) -> ImageDecodingError? {
        guard let sequence = item?.sequence else { return nil }
        do throws(ImageDecodingError) {
            _ = try AVIF.FrameParser.parse(data, sequence: sequence, limits: limits, reconstructor: AVIF.DiscardingReconstructor())
            return nil
        } catch {
            return error
        }
    }

    @Test(.enabled(if: item != nil)) func intactItemParses() throws {
        #expect(Self.parse(try #require(Self.item).data) == nil)
    }

    /// Every cut through the data (a sample of them: the OBU headers, the frame header, the
    /// first tile bytes, the end) is a typed error.
    @Test(.enabled(if: item != nil)) func truncatedDataIsATypedError() throws {
        let data = try #require(Self.item).data
        var cuts = Array(0..<min(64, data.count))
        cuts += stride(from: 64, to: data.count, by: max(1, data.count / 40))
        cuts += [data.count - 2, data.count - 1]
        for cut in cuts {
            let error = Self.parse(Array(data[0..<cut]))
            #expect(error != nil, "cut at \(cut) parsed")
        }
    }

    /// The frame OBU cut short inside its tile data, its size field rewritten to match (so
    /// that the OBU layer sees nothing wrong): the tile syntax itself must refuse it.
    @Test(.enabled(if: item != nil)) func truncatedTileIsATypedError() throws {
        let data = try #require(Self.item).data
        let units = try AVIF.OBU.split(data, 0..<data.count)
        let index = try #require(units.firstIndex { $0.kind == .frame })
        let frame = units[index]
        let start = index == 0 ? 0 : units[index - 1].payload.upperBound
        #expect(data[start] == 0x32, "a frame OBU with a size field and no extension")
        for fraction in [1, 10, 50, 90, 99] {
            let keep = frame.payload.count * fraction / 100
            var size: [UInt8] = []
            var value = keep
            repeat {
                size.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
                value >>= 7
            } while value > 0
            let damaged = Array(data[0..<start]) + [0x32] + size + Array(data[frame.payload.lowerBound..<(frame.payload.lowerBound + keep)])
            let error = Self.parse(damaged)
            #expect(error != nil, "tile cut to \(fraction) % parsed")
        }
    }

    /// Flipping bytes of the tile data: typed errors almost always, never a crash or hang.
    @Test(.enabled(if: item != nil)) func flippedBytesAreTypedErrors() throws {
        let data = try #require(Self.item).data
        var rng = SplitMix(seed: 0xA11CE)
        var refused = 0
        let trials = 40
        for _ in 0..<trials {
            var damaged = data
            let position = 40 + Int(rng.next() % UInt64(data.count - 40))
            damaged[position] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            if let error = Self.parse(damaged) {
                refused += 1
                switch error {
                case .malformed, .unsupported, .limitExceeded: break
                default: Issue.record("untyped failure \(error)")
                }
            }
        }
        // A flip in the last bytes of a tile can go unseen; almost every other is caught.
        #expect(refused >= trials * 3 / 4, "\(refused) of \(trials) flips refused")
    }

    /// A frame larger than the limits is refused from its header, before allocation.
    @Test(.enabled(if: item != nil)) func frameSizeIsBoundedByTheLimits() throws {
        let data = try #require(Self.item).data
        let error = Self.parse(data, limits: DecodingLimits(maxWidth: 1000))
        #expect(error == .limitExceeded(.width))
        let pixels = Self.parse(data, limits: DecodingLimits(maxPixelsPerFrame: 1 << 16))
        #expect(pixels == .limitExceeded(.pixelsPerFrame))
        let bytes = Self.parse(data, limits: DecodingLimits(maxTotalBytes: 4096))
        #expect(bytes == .limitExceeded(.totalBytes))
    }
}
