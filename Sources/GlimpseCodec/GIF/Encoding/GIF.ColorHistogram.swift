extension GIF {
    /// Counts the distinct colours of a frame: an open-addressing hash table of
    /// 0xRRGGBB keys, much cheaper per pixel than a `Dictionary`.
    struct ColorHistogram {
        /// Key + 1 (0 = empty slot).
        private var keys: [UInt32]
        private(set) var counts: [Int]
        /// A value per slot for the caller (the palette index).
        var values: [UInt8]
        private(set) var count = 0
        private var mask: Int

        init(capacity: Int = 1024) {
            var size = 16
            while size < capacity * 2 { size <<= 1 }
            keys = [UInt32](repeating: 0, count: size)
            counts = [Int](repeating: 0, count: size)
            values = [UInt8](repeating: 0, count: size)
            mask = size - 1
        }

        /// The slot of `color`, if present.
        func slot(of color: UInt32) -> Int? {
            var slot = Self.hash(color) & mask
            while keys[slot] != 0 {
                if keys[slot] == color &+ 1 { return slot }
                slot = (slot + 1) & mask
            }
            return nil
        }

        /// Counts one more pixel of `color`.
        mutating func add(_ color: UInt32) {
            var slot = Self.hash(color) & mask
            while keys[slot] != 0 {
                if keys[slot] == color &+ 1 { counts[slot] += 1; return }
                slot = (slot + 1) & mask
            }
            keys[slot] = color &+ 1
            counts[slot] = 1
            count += 1
            if count * 2 > keys.count { grow() }
        }

        /// Every colour with its count.
        var entries: [(color: UInt32, count: Int)] {
            keys.indices.compactMap { keys[$0] == 0 ? nil : (keys[$0] &- 1, counts[$0]) }
        }

        private mutating func grow() {
            let old = entries
            var bigger = ColorHistogram(capacity: keys.count)
            for entry in old {
                var slot = Self.hash(entry.color) & bigger.mask
                while bigger.keys[slot] != 0 { slot = (slot + 1) & bigger.mask }
                bigger.keys[slot] = entry.color &+ 1
                bigger.counts[slot] = entry.count
            }
            bigger.count = count
            self = bigger
        }

        private static func hash(_ color: UInt32) -> Int {
            Int(truncatingIfNeeded: (color &* 0x9E37_79B1) >> 12)
        }
    }
}
