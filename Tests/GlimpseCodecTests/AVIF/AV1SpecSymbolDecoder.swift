@testable import GlimpseCodec

/// The AV1 symbol decoder exactly as §8.2 writes it — a bit at a time, `SymbolValue` a
/// 16-bit value, the position a bit index — kept in the tests as the reference the
/// library's windowed ``AVIF/SymbolDecoder`` must agree with symbol for symbol.
struct AV1SpecSymbolDecoder {
    private let data: [UInt8]
    private(set) var position: Int
    private let endBit: Int
    private var symbolValue = 0
    private var symbolRange = 0
    private(set) var symbolMaxBits = 0
    private let disableCdfUpdate: Bool
    var cdf: [UInt16]

    /// `init_symbol(sz)` (§8.2.2) on `data[range]`, `range` not empty.
    init(_ data: [UInt8], _ range: Range<Int>, cdf: [UInt16], disableCdfUpdate: Bool) {
        self.data = data
        self.cdf = cdf
        self.disableCdfUpdate = disableCdfUpdate
        position = range.lowerBound * 8
        endBit = range.upperBound * 8
        let numBits = min(range.count * 8, 15)
        let buf = readBits(numBits)
        symbolValue = ((1 << 15) - 1) ^ (buf << (15 - numBits))
        symbolRange = 1 << 15
        symbolMaxBits = 8 * range.count - 15
    }

    private mutating func readBits(_ count: Int) -> Int {
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(data[position >> 3] >> (7 - UInt8(position & 7))) & 1
            position += 1
        }
        return value
    }

    /// `read_symbol(cdf)` (§8.2.6) on the tile's CDFs.
    mutating func symbol(_ offset: Int, _ n: Int) -> Int {
        var table = cdf
        let symbol = symbol(in: &table, offset, n, adapting: !disableCdfUpdate)
        cdf = table
        return symbol
    }

    /// `read_bool()` (§8.2.3): `read_symbol` on {1 << 14, 1 << 15, 0}.
    mutating func bool() -> Int { binary(cdf0: 1 << 14) }

    /// A two-symbol CDF given by value, {cdf0, 1 << 15, 0}, which nothing adapts.
    mutating func binary(cdf0: Int) -> Int {
        var table: [UInt16] = [UInt16(cdf0), 1 << 15, 0]
        return symbol(in: &table, 0, 2, adapting: false)
    }

    /// `read_symbol` on the CDF at `table[offset ..< offset + n + 1]`.
    private mutating func symbol(in cdf: inout [UInt16], _ offset: Int, _ n: Int, adapting: Bool) -> Int {
        var cur = symbolRange
        var prev: Int
        var symbol = -1
        repeat {
            symbol += 1
            prev = cur
            let f = (1 << 15) - Int(cdf[offset + symbol])
            cur = ((symbolRange >> 8) * (f >> 6)) >> 1
            cur += 4 * (n - symbol - 1)
        } while symbolValue < cur
        symbolRange = prev - cur
        symbolValue -= cur
        let bits = 15 - AVIF.AV1Arithmetic.floorLog2(symbolRange)
        if bits > 0 {
            symbolRange <<= bits
            let numBits = min(bits, max(0, symbolMaxBits))
            let newData = readBits(numBits)
            symbolValue = (newData << (bits - numBits)) ^ (((symbolValue + 1) << bits) - 1)
            symbolMaxBits -= bits
        }
        if adapting {
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

    /// `exit_symbol()` (§8.2.4) as a yes or no: SymbolMaxBits ≥ −14, the trailing one bit,
    /// zero bits to the end.
    func exitIsValid() -> Bool {
        guard symbolMaxBits >= -14 else { return false }
        let trailingBitPosition = position - min(15, symbolMaxBits + 15)
        let paddingEnd = position + max(0, symbolMaxBits)
        guard paddingEnd == endBit, trailingBitPosition >= 0 else { return false }
        func bit(_ index: Int) -> Int { Int(data[index >> 3] >> (7 - UInt8(index & 7))) & 1 }
        guard bit(trailingBitPosition) == 1 else { return false }
        return (trailingBitPosition + 1 ..< paddingEnd).allSatisfy { bit($0) == 0 }
    }
}
