import Testing
@testable import GlimpseCodec

/// The symbol decoder (AV1 §8.2) against values worked out from the specification's
/// equations: init_symbol, read_symbol's range/value update and renormalization, the CDF
/// adaptation, read_bool/read_literal, and exit_symbol's trailing-bit and padding checks.
@Suite struct AVIFSymbolDecoderTests {
    /// [0x80, 0x00]: init_symbol reads 15 bits, buf = 0x4000, SymbolValue = 0x7FFF ^ 0x4000 = 16383,
    /// SymbolRange = 32768, SymbolMaxBits = 1. read_bool: f = 16384, cur = (128 · 256) >> 1 + 4 = 16388;
    /// 16383 < 16388, so symbol 1, range 16388, one bit (0) shifted in: value 32767, SymbolMaxBits 0.
    /// Second read_bool: cur = 16388 again, 32767 ≥ 16388 gives symbol 0.
    @Test func readBoolFollowsTheEquations() throws {
        var decoder = try AVIF.SymbolDecoder([0x80, 0x00], 0..<2, cdf: [], disableCdfUpdate: false)
        #expect(decoder.bool() == 1)
        #expect(decoder.bool() == 0)
    }

    /// read_literal(n) is n read_bools, most significant first; for equiprobable bools the
    /// arithmetic decoder gives back the leading bits here: 0x5A, then 0b10100.
    @Test func readLiteral() throws {
        var decoder = try AVIF.SymbolDecoder([0x5A, 0xC3, 0x99, 0x10], 0..<4, cdf: [], disableCdfUpdate: false)
        #expect(decoder.literal(8) == 90)
        #expect(decoder.literal(5) == 20)
    }

    /// A 3-symbol CDF {8192, 20000, 32768, count 0}: symbols 1, 1, 0, 1. After the first,
    /// rate = 3 + 0 + 0 + min(FloorLog2(3), 2) = 4: cdf[0] = 8192 − (8192 >> 4) = 7680,
    /// cdf[1] = 20000 + ((32768 − 20000) >> 4) = 20798, count 1; after all four {8249, 22904, 32768, 4}.
    @Test func readSymbolAdaptsTheCdf() throws {
        var decoder = try AVIF.SymbolDecoder([0x5A, 0xC3, 0x99, 0x10], 0..<4, cdf: [8192, 20000, 32768, 0],
                                             disableCdfUpdate: false)
        #expect(decoder.symbol(0, 3) == 1)
        #expect(decoder.cdf == [7680, 20798, 32768, 1])
        #expect(decoder.symbol(0, 3) == 1)
        #expect(decoder.symbol(0, 3) == 0)
        #expect(decoder.symbol(0, 3) == 1)
        #expect(decoder.cdf == [8249, 22904, 32768, 4])
    }

    /// disable_cdf_update: the same symbols, the CDF untouched.
    @Test func disabledUpdateLeavesTheCdf() throws {
        var decoder = try AVIF.SymbolDecoder([0x5A, 0xC3, 0x99, 0x10], 0..<4, cdf: [8192, 20000, 32768, 0],
                                             disableCdfUpdate: true)
        #expect([decoder.symbol(0, 3), decoder.symbol(0, 3), decoder.symbol(0, 3), decoder.symbol(0, 3)] == [1, 1, 0, 1])
        #expect(decoder.cdf == [8192, 20000, 32768, 0])
    }

    /// A two-symbol CDF given by value decodes as read_symbol on {cdf0, 32768, 0} does.
    @Test func binaryMatchesReadSymbol() throws {
        let data: [UInt8] = [0x13, 0x37, 0xC0, 0xDE, 0x42]
        for cdf0 in [1 << 14, 3000, 30000] {
            var byValue = try AVIF.SymbolDecoder(data, 0..<5, cdf: [], disableCdfUpdate: true)
            var byArray = try AVIF.SymbolDecoder(data, 0..<5, cdf: [UInt16(cdf0), 32768, 0], disableCdfUpdate: true)
            for _ in 0..<24 { #expect(byValue.binary(cdf0: cdf0) == byArray.symbol(0, 2)) }
        }
    }

    /// exit_symbol with nothing read from [0x80, 0x00]: trailingBitPosition = 15 − Min(15, 1 + 15) = 0,
    /// a one; bits 1…15 zero; the padding ends at 15 + 1 = 16, the tile's end.
    @Test func exitChecksTheTrailingBitAndPadding() throws {
        try AVIF.SymbolDecoder([0x80, 0x00], 0..<2, cdf: [], disableCdfUpdate: true).exit()
        #expect(throws: ImageDecodingError.self) {
            try AVIF.SymbolDecoder([0x40, 0x00], 0..<2, cdf: [], disableCdfUpdate: true).exit()
        }
        #expect(throws: ImageDecodingError.self) {
            try AVIF.SymbolDecoder([0x80, 0x01], 0..<2, cdf: [], disableCdfUpdate: true).exit()
        }
    }

    /// Reading past the data uses zero padding; more than 14 bits of it is an error at exit.
    @Test func overreadIsAnError() throws {
        var decoder = try AVIF.SymbolDecoder([0x80, 0x00], 0..<2, cdf: [], disableCdfUpdate: true)
        _ = decoder.literal(40)
        #expect(decoder.hasOverread)
        #expect(throws: ImageDecodingError.malformed(.avif(.av1(.tileData(.overread))))) { try decoder.exit() }
    }

    /// init_symbol refuses an empty tile.
    @Test func emptyTileIsRefused() {
        #expect(throws: ImageDecodingError.self) {
            _ = try AVIF.SymbolDecoder([0x80], 1..<1, cdf: [], disableCdfUpdate: true)
        }
    }
}
