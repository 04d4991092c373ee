extension AVIF {
    /// The AV1 multi-symbol arithmetic decoder of one tile (AV1 §8.2): `init_symbol(sz)`
    /// (§8.2.2), `read_symbol(cdf)` with CDF adaptation (§8.2.6), `read_bool()` (§8.2.3),
    /// `read_literal(n)` (§8.2.5) and `exit_symbol()` (§8.2.4) with its trailing-bit and
    /// padding checks. It owns the tile's CDFs (``AVIF/CDFContext``'s flat pool), so that
    /// `read_symbol` adapts them in place without an allocation per symbol.
    struct SymbolDecoder {
        private let data: [UInt8]
        /// The bit position of the next bit `f(n)` reads (`get_position()` in the tile's bytes).
        private var position: Int
        private let startBit: Int
        private let endBit: Int
        private var symbolValue = 0
        private var symbolRange = 0
        /// `SymbolMaxBits`: bits still to be read; negative once zero padding is being used.
        private var symbolMaxBits = 0
        private let disableCdfUpdate: Bool
        /// The tile's CDF arrays (the spec's `Tile…Cdf`), laid out by ``AVIF/CDFContext``.
        var cdf: [UInt16]

        /// A decoder over no data, before the first tile starts.
        init() {
            data = []
            cdf = []
            disableCdfUpdate = true
            position = 0
            startBit = 0
            endBit = 0
        }

        /// Whether the tile's syntax has already read more than `exit_symbol()` allows
        /// (`SymbolMaxBits` < −14): checked as blocks go, so that a damaged tile stops early.
        var hasOverread: Bool { symbolMaxBits < -14 }

        /// `init_symbol(sz)` on `data[range]`; `sz` is `range.count`, at least 1 (§5.11.1
        /// gives every tile a size ≥ 1).
        init(_ data: [UInt8], _ range: Range<Int>, cdf: [UInt16], disableCdfUpdate: Bool) throws(ImageDecodingError) {
            guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= data.count else {
                throw .avif(.tileData(.sizeOutOfRange))
            }
            self.data = data
            self.cdf = cdf
            self.disableCdfUpdate = disableCdfUpdate
            startBit = range.lowerBound * 8
            position = startBit
            endBit = range.upperBound * 8
            let sz = range.count
            let numBits = min(sz * 8, 15)
            let buf = readBits(numBits)
            let paddedBuf = buf << (15 - numBits)
            symbolValue = ((1 << 15) - 1) ^ paddedBuf
            symbolRange = 1 << 15
            symbolMaxBits = 8 * sz - 15
        }

        /// `f(n)` inside the tile; the callers never ask past its end (`SymbolMaxBits` bounds them).
        private mutating func readBits(_ count: Int) -> Int {
            var value = 0
            var remaining = count
            while remaining > 0 {
                let byte = Int(data[position >> 3])
                let available = 8 - (position & 7)
                let take = min(available, remaining)
                value = value << take | (byte >> (available - take)) & ((1 << take) - 1)
                position += take
                remaining -= take
            }
            return value
        }

        /// `read_symbol(cdf)` for the CDF of `n` symbols at `cdf[offset ..< offset + n + 1]`
        /// (the last entry is the adaptation counter).
        mutating func symbol(_ offset: Int, _ n: Int) -> Int {
            var cur = symbolRange
            var prev: Int
            var symbol = -1
            repeat {
                symbol += 1
                prev = cur
                let f = (1 << 15) - Int(cdf[offset + symbol])
                cur = ((symbolRange >> 8) * (f >> AV1Tables.EC_PROB_SHIFT)) >> (7 - AV1Tables.EC_PROB_SHIFT)
                cur += AV1Tables.EC_MIN_PROB * (n - symbol - 1)
            } while symbolValue < cur
            renormalize(range: prev - cur, value: symbolValue - cur)
            if !disableCdfUpdate {
                let count = Int(cdf[offset + n])
                let rate = 3 + (count > 15 ? 1 : 0) + (count > 31 ? 1 : 0) + min(AVIF.AV1Arithmetic.floorLog2(n), 2)
                var tmp = 0
                for i in 0..<(n - 1) {
                    if i == symbol { tmp = 1 << 15 }
                    let value = Int(cdf[offset + i])
                    cdf[offset + i] = UInt16(tmp < value ? value - ((value - tmp) >> rate) : value + ((tmp - value) >> rate))
                }
                if count < 32 { cdf[offset + n] = UInt16(count + 1) }
            }
            return symbol
        }

        /// The symbol of a CDF given by value (`split_or_horz`, `split_or_vert`, `read_bool`):
        /// two symbols, `cdf0` the first entry; nothing to adapt (§8.2.3's note, §8.3.2).
        mutating func binary(cdf0: Int) -> Int {
            let f = (1 << 15) - cdf0
            let cur0 = ((symbolRange >> 8) * (f >> AV1Tables.EC_PROB_SHIFT)) >> (7 - AV1Tables.EC_PROB_SHIFT) + AV1Tables.EC_MIN_PROB
            if symbolValue < cur0 {
                // Symbol 1: its cur is 0 (cdf[1] is 1 << 15).
                renormalize(range: cur0, value: symbolValue)
                return 1
            }
            renormalize(range: symbolRange - cur0, value: symbolValue - cur0)
            return 0
        }

        /// The renormalization of §8.2.6 (its seven ordered steps).
        private mutating func renormalize(range: Int, value: Int) {
            symbolRange = range
            symbolValue = value
            let bits = 15 - AVIF.AV1Arithmetic.floorLog2(symbolRange)
            guard bits > 0 else { return }
            symbolRange <<= bits
            let numBits = min(bits, max(0, symbolMaxBits))
            let newData = readBits(numBits)
            let paddedData = newData << (bits - numBits)
            symbolValue = paddedData ^ (((symbolValue + 1) << bits) - 1)
            symbolMaxBits -= bits
        }

        /// `read_bool()` (§8.2.3): `read_symbol` of {1 << 14, 1 << 15, 0}.
        mutating func bool() -> Int { binary(cdf0: 1 << 14) }

        /// `read_literal(n)` (§8.2.5), the descriptor `L(n)`.
        mutating func literal(_ n: Int) -> Int {
            var x = 0
            for _ in 0..<n { x = 2 * x + bool() }
            return x
        }

        /// `NS(n)` (§4.10.10): `ns(n)` with its bits read by `read_literal`.
        mutating func nonSymmetric(_ n: Int) -> Int {
            guard n > 1 else { return 0 }
            let w = AVIF.AV1Arithmetic.floorLog2(n) + 1
            let m = (1 << w) - n
            let v = literal(w - 1)
            if v < m { return v }
            let extraBit = literal(1)
            return (v << 1) - m + extraBit
        }

        /// `exit_symbol()` (§8.2.4): `SymbolMaxBits` ≥ −14, the trailing one bit where the
        /// symbol decoder stopped, and only zero bits after it to the end of the tile.
        func exit() throws(ImageDecodingError) {
            guard symbolMaxBits >= -14 else { throw .avif(.tileData(.overread)) }
            let trailingBitPosition = position - min(15, symbolMaxBits + 15)
            let paddingEndPosition = position + max(0, symbolMaxBits)
            guard trailingBitPosition >= startBit, paddingEndPosition == endBit else { throw .avif(.tileData(.trailingBits)) }
            func bit(_ index: Int) -> Int { Int(data[index >> 3] >> (7 - UInt8(index & 7))) & 1 }
            guard bit(trailingBitPosition) == 1 else { throw .avif(.tileData(.trailingBits)) }
            var index = trailingBitPosition + 1
            // Whole zero bytes are checked a byte at a time once aligned.
            while index < paddingEndPosition {
                if index & 7 == 0 && index + 8 <= paddingEndPosition {
                    guard data[index >> 3] == 0 else { throw .avif(.tileData(.trailingBits)) }
                    index += 8
                } else {
                    guard bit(index) == 0 else { throw .avif(.tileData(.trailingBits)) }
                    index += 1
                }
            }
        }
    }
}
