import Testing
import TestSupport
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

    /// The windowed decoder against the specification's bit-at-a-time one
    /// (``AV1SpecSymbolDecoder``): tiles of 1–40 random bytes, some ending in a valid
    /// trailing bit, at an offset inside a larger buffer; random CDFs of 2–16 symbols,
    /// adapted or not; symbols, bools and literals mixed until well past the end. Every
    /// symbol, every adapted CDF, the overread flag and exit_symbol's verdict agree.
    @Test func windowedDecoderMatchesTheSpecification() throws {
        var random = SplitMix(seed: 0xAB1_5EED)
        for round in 0..<3_000 {
            let size = 1 + Int(random.next() % 40)
            let prefix = Int(random.next() % 3)
            var data = (0..<(prefix + size + 2)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if round % 3 == 0 {
                // A tile whose syntax ends with the trailing bit at some point and zeros after.
                let cut = prefix + Int(random.next() % UInt64(size))
                data[cut] |= 1
                for i in (cut + 1)..<(prefix + size) { data[i] = 0 }
            }
            let range = prefix..<(prefix + size)
            var cdf: [UInt16] = []
            var tables: [(offset: Int, n: Int)] = []
            for _ in 0..<4 {
                let n = 2 + Int(random.next() % 15)
                var cuts = (0..<(n - 1)).map { _ in UInt16(1 + random.next() % 32_766) }.sorted()
                for i in cuts.indices.dropFirst() where cuts[i] <= cuts[i - 1] { cuts[i] = min(32_767, cuts[i - 1] + 1) }
                tables.append((cdf.count, n))
                cdf += cuts + [32_768, UInt16(random.next() % 3 == 0 ? 31 : 0)]
            }
            let disable = round % 5 == 0
            var windowed = try AVIF.SymbolDecoder(data, range, cdf: cdf, disableCdfUpdate: disable)
            var spec = AV1SpecSymbolDecoder(data, range, cdf: cdf, disableCdfUpdate: disable)
            let steps = Int(random.next() % UInt64(size * 12 + 8))
            for step in 0..<steps {
                switch random.next() % 3 {
                case 0:
                    let table = tables[Int(random.next() % 4)]
                    let (a, b) = (windowed.symbol(table.offset, table.n), spec.symbol(table.offset, table.n))
                    #expect(a == b, "round \(round) step \(step): symbol")
                case 1:
                    #expect(windowed.bool() == spec.bool(), "round \(round) step \(step): bool")
                default:
                    let cdf0 = Int(1 + random.next() % 32_767)
                    #expect(windowed.binary(cdf0: cdf0) == spec.binary(cdf0: cdf0), "round \(round) step \(step): binary")
                }
                #expect(windowed.hasOverread == (spec.symbolMaxBits < -14))
                if windowed.hasOverread { break }
            }
            #expect(windowed.cdf == spec.cdf, "round \(round): adapted CDFs")
            let exits = (try? windowed.exit()) != nil
            #expect(exits == spec.exitIsValid(), "round \(round): exit_symbol")
        }
    }
}
