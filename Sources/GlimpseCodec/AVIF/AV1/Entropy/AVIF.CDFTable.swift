extension AVIF {
    /// Where one of the specification's CDF arrays (e.g. `TilePartitionW16Cdf[ctx]`) lies in
    /// the flat pool of ``AVIF/SymbolDecoder/cdf``: each CDF of `n` symbols takes `n + 1`
    /// entries (the last is the adaptation counter), the indices outermost first.
    struct CDFTable: Sendable {
        var base = 0
        /// The number of symbols of each CDF of the table (N in §8.2.6).
        var n = 0
        var stride0 = 0, stride1 = 0, stride2 = 0

        func at() -> Int { base }
        func at(_ i: Int) -> Int { base + i * stride0 }
        func at(_ i: Int, _ j: Int) -> Int { base + i * stride0 + j * stride1 }
        func at(_ i: Int, _ j: Int, _ k: Int) -> Int { base + i * stride0 + j * stride1 + k * stride2 }
    }
}

extension AVIF.CDFTable {
    /// Flattens default CDF arrays into one pool, in the order they are added.
    struct Builder {
        var pool: [UInt16] = []

        mutating func add(_ cdf: [UInt16]) -> AVIF.CDFTable {
            let table = AVIF.CDFTable(base: pool.count, n: cdf.count - 1)
            pool += cdf
            return table
        }

        mutating func add(_ cdfs: [[UInt16]]) -> AVIF.CDFTable {
            let size = cdfs.first?.count ?? 1
            let table = AVIF.CDFTable(base: pool.count, n: size - 1, stride0: size)
            for cdf in cdfs { pool += Self.padded(cdf, size) }
            return table
        }

        mutating func add(_ cdfs: [[[UInt16]]]) -> AVIF.CDFTable {
            let inner = cdfs.first?.count ?? 0
            let size = cdfs.first?.first?.count ?? 1
            let table = AVIF.CDFTable(base: pool.count, n: size - 1, stride0: inner * size, stride1: size)
            for row in cdfs { for cdf in row { pool += Self.padded(cdf, size) } }
            return table
        }

        mutating func add(_ cdfs: [[[[UInt16]]]]) -> AVIF.CDFTable {
            let middle = cdfs.first?.count ?? 0
            let inner = cdfs.first?.first?.count ?? 0
            let size = cdfs.first?.first?.first?.count ?? 1
            let table = AVIF.CDFTable(base: pool.count, n: size - 1, stride0: middle * inner * size,
                                      stride1: inner * size, stride2: size)
            for plane in cdfs { for row in plane { for cdf in row { pool += Self.padded(cdf, size) } } }
            return table
        }

        /// The generated tables are regular; this keeps the layout regular even if one were not.
        private static func padded(_ cdf: [UInt16], _ size: Int) -> [UInt16] {
            cdf.count == size ? cdf : Array((cdf + [UInt16](repeating: 0, count: size)).prefix(size))
        }
    }
}
