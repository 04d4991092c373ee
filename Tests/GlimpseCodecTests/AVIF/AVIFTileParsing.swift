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
    }

    static func parse(_ bytes: [UInt8], limits: DecodingLimits = DecodingLimits()) -> Outcome {
        var options = DecodingOptions()
        options.limits = limits
        var decoder = AVIF.Decoder(options: options)
        var outcome = Outcome()
        do throws(ImageDecodingError) {
            _ = try decoder.append(bytes)
            _ = try decoder.finish()
        } catch {
            if case .unsupported(.avif(.av1TileDecoding)) = error {} else { outcome.containerError = error }
        }
        for item in decoder.codedItems {
            do throws(ImageDecodingError) {
                _ = try AVIF.FrameParser.parse(item.data, sequence: item.sequence, limits: limits,
                                               reconstructor: AVIF.DiscardingReconstructor())
                outcome.items.append((item.id, nil))
            } catch {
                outcome.items.append((item.id, error))
            }
        }
        return outcome
    }
}
