@testable import GlimpseCodec

/// Runs the AV1 tile syntax over every coded item of an AVIF file (the colour image's
/// items, a grid's cells, the alpha image), with a reconstructor that does nothing.
enum AVIFTileParsing {
    struct Outcome {
        /// One entry per coded item: nil when every tile parsed to its end with exit_symbol's checks passing.
        var items: [(id: UInt32, error: ImageDecodingError?)] = []
        /// Why the container or headers were refused, when they were.
        var containerError: ImageDecodingError?
        var failures: [ImageDecodingError] { items.compactMap(\.error) }
        /// 4×4 positions coded with a palette (luma or chroma), over all items.
        var palettePositions = 0
        /// Blocks coded with intra block copy, over all items.
        var intraBlockCopyBlocks = 0
        /// Whether a frame had `allow_intrabc`, segmentation, delta q, more than one tile.
        var usedIntraBlockCopy = false, usedSegmentation = false, usedDeltaQ = false, usedTiles = false
    }

    static func parse(_ bytes: [UInt8], limits: DecodingLimits = DecodingLimits()) -> Outcome {
        var options = DecodingOptions()
        options.limits = limits
        var decoder = AVIF.Decoder(options: options)
        var outcome = Outcome()
        do throws(ImageDecodingError) {
            // Only the container and headers: finish() would decode the frames as well.
            if try decoder.append(bytes) != .complete { _ = try decoder.finish() }
        } catch {
            outcome.containerError = error
        }
        for item in decoder.codedItems {
            do throws(ImageDecodingError) {
                let (frame, info, _) = try AVIF.FrameParser.parse(item.data, sequence: item.sequence, limits: limits,
                                                                  reconstructor: AVIF.DiscardingReconstructor())
                outcome.palettePositions += info.paletteSizes.filter { $0 > 0 }.count
                outcome.intraBlockCopyBlocks += info.intraBlockCopyBlocks
                outcome.usedIntraBlockCopy = outcome.usedIntraBlockCopy || frame.header.allowsIntraBlockCopy
                outcome.usedSegmentation = outcome.usedSegmentation || frame.segmentationEnabled
                outcome.usedDeltaQ = outcome.usedDeltaQ || frame.deltaQPresent
                outcome.usedTiles = outcome.usedTiles || frame.tiles.tileCols * frame.tiles.tileRows > 1
                outcome.items.append((item.id, nil))
            } catch {
                outcome.items.append((item.id, error))
            }
        }
        return outcome
    }
}
