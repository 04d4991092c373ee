extension AVIF {
    /// The AV1 multi-symbol arithmetic decoder of one tile (AV1 §8.2): `init_symbol(sz)`
    /// (§8.2.2), `read_symbol(cdf)` with CDF adaptation (§8.2.6), `read_bool()` (§8.2.3),
    /// `read_literal(n)` (§8.2.5) and `exit_symbol()` (§8.2.4) with its trailing-bit and
    /// padding checks. It owns the tile's CDFs (``AVIF/CDFContext``'s flat pool), so that
    /// `read_symbol` adapts them in place without an allocation per symbol.
    ///
    /// The spec reads the tile a bit at a time as it renormalizes; here the next bits wait,
    /// inverted, in a 64-bit window below `SymbolValue` (as dav1d's `dif`), refilled a byte
    /// at a time, so that renormalizing is one shift. The two give the same symbols, the
    /// same `SymbolMaxBits` and the same position (`AVIFSymbolDecoderTests` runs both on
    /// random tiles); callgrind on fox.profile0.8bpc.yuv420.avif: `coeffs()` with the
    /// symbols it reads, 380 M → 260 M instructions.
    struct SymbolDecoder {
        private let data: [UInt8]
        /// The next byte of the tile to enter the window.
        private var nextByte: Int
        private let startBit: Int
        /// One past the tile's last byte; the window fills with zero bits (inverted, ones)
        /// past it, as the spec pads once `SymbolMaxBits` runs out.
        private let endByte: Int
        /// `SymbolValue` in bits 63…48, then the tile's next `bufferedBits` bits inverted.
        private var window: UInt64 = 0
        /// How many bits below bit 48 hold the tile's next bits (at least 16 between calls).
        private var bufferedBits = 0
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
            nextByte = 0
            startBit = 0
            endByte = 0
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
            nextByte = range.lowerBound
            endByte = range.upperBound
            // The first 15 bits, inverted, become SymbolValue (bit 63 stays 0): the spec's
            // `((1 << 15) - 1) ^ paddedBuf`.
            bufferedBits = -15
            refill()
            symbolRange = 1 << 15
            symbolMaxBits = 8 * range.count - 15
        }

        /// Tops the window up to more than 40 bits below `SymbolValue`, with zero bytes
        /// past the tile's end.
        private mutating func refill() {
            while bufferedBits <= 40 {
                var byte: UInt8 = 0
                if nextByte < endByte {
                    byte = data[nextByte]
                    nextByte += 1
                }
                window |= UInt64(~byte) << UInt64(40 - bufferedBits)
                bufferedBits += 8
            }
        }

        /// `read_symbol(cdf)` for the CDF of `n` symbols at `cdf[offset ..< offset + n + 1]`
        /// (the last entry is the adaptation counter).
        mutating func symbol(_ offset: Int, _ n: Int) -> Int {
            // Unreachable: the offsets are ``AVIF/CDFTable``'s, inside the pool by
            // construction; checked once here so that the loops below need no checks.
            guard offset >= 0, n >= 1, offset + n < cdf.count else { return 0 }
            let value = Int(truncatingIfNeeded: window >> 48)
            let range = symbolRange
            let (symbol, prev, cur) = cdf.withUnsafeBufferPointer { cdf in
                var cur = range
                var prev: Int
                var symbol = -1
                repeat {
                    symbol &+= 1
                    prev = cur
                    // In bounds: symbol < n, as the last symbol's cur is 0 (cdf[n - 1] is 1 << 15).
                    let f = (1 << 15) &- Int(cdf[offset &+ symbol])
                    cur = ((range &>> 8) &* (f &>> AV1Tables.EC_PROB_SHIFT)) &>> (7 - AV1Tables.EC_PROB_SHIFT)
                    cur &+= AV1Tables.EC_MIN_PROB &* (n &- symbol &- 1)
                } while value < cur && symbol < n - 1
                return (symbol, prev, cur)
            }
            renormalize(range: prev - cur, subtracting: cur)
            if !disableCdfUpdate {
                cdf.withUnsafeMutableBufferPointer { cdf in
                    let count = Int(cdf[offset &+ n])
                    let rate = 3 + (count > 15 ? 1 : 0) + (count > 31 ? 1 : 0) + min(AVIF.AV1Arithmetic.floorLog2(n), 2)
                    var tmp = 0
                    for i in 0..<(n - 1) {
                        if i == symbol { tmp = 1 << 15 }
                        let value = Int(cdf[offset &+ i])
                        cdf[offset &+ i] = UInt16(truncatingIfNeeded: tmp < value ? value &- ((value &- tmp) &>> rate)
                                                                                 : value &+ ((tmp &- value) &>> rate))
                    }
                    if count < 32 { cdf[offset &+ n] = UInt16(count + 1) }
                }
            }
            return symbol
        }

        /// The symbol of a CDF given by value (`split_or_horz`, `split_or_vert`, `read_bool`):
        /// two symbols, `cdf0` the first entry; nothing to adapt (§8.2.3's note, §8.3.2).
        mutating func binary(cdf0: Int) -> Int {
            let f = (1 << 15) - cdf0
            let cur0 = ((symbolRange >> 8) * (f >> AV1Tables.EC_PROB_SHIFT)) >> (7 - AV1Tables.EC_PROB_SHIFT) + AV1Tables.EC_MIN_PROB
            if Int(truncatingIfNeeded: window >> 48) < cur0 {
                // Symbol 1: its cur is 0 (cdf[1] is 1 << 15).
                renormalize(range: cur0, subtracting: 0)
                return 1
            }
            renormalize(range: symbolRange - cur0, subtracting: cur0)
            return 0
        }

        /// The renormalization of §8.2.6 (its seven ordered steps): `SymbolValue − cur`,
        /// then both it and the range shifted up by `15 − FloorLog2(range)` bits, which the
        /// window already holds.
        private mutating func renormalize(range: Int, subtracting cur: Int) {
            // cur ≤ SymbolValue (the symbol loop stops there), so this cannot wrap.
            window &-= UInt64(truncatingIfNeeded: cur) &<< 48
            symbolRange = range
            // 15 − FloorLog2(range) for 1 ≤ range < 2¹⁶; the spec's loop leaves range alone
            // for bits ≤ 0, and a range of 0 (unreachable) stays 0.
            let bits = min(16, max(0, range.leadingZeroBitCount - (Int.bitWidth - 16)))
            guard bits > 0 else { return }
            symbolRange = range &<< bits
            window &<<= UInt64(bits)
            bufferedBits -= bits
            symbolMaxBits -= bits
            if bufferedBits < 16 { refill() }
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
            // The spec's bit position: every bit of the tile has been read but the
            // SymbolMaxBits still to come.
            let position = endByte * 8 - max(0, symbolMaxBits)
            let endBit = endByte * 8
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
