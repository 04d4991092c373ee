extension WebP {
    /// The colour-indexing transform of an `ALPH` chunk's lossless stream reduced to
    /// what alpha needs: the green byte of each palette entry (RFC 9649 §2.7.1.4: the
    /// plane is the green channel), so bundled indices become alpha values in one step
    /// (libwebp's `VP8LColorIndexInverseTransformAlpha` does the same).
    struct AlphaPalette {
        /// One entry per index a bundle can hold (the transform pads the palette to that size).
        private let greens: [UInt8]
        /// For bundled indices (`bits > 0`): the alpha bytes of every bundle byte, the first
        /// pixel in the lowest byte, so a coded word becomes its 2, 4 or 8 values in one store.
        private let bundles: [UInt64]
        /// Pixels per coded word, as a shift (RFC 9649 §4.4).
        private let bits: Int
        let codedWidth: Int

        init(_ transform: LosslessTransform) {
            let greens = transform.data.map { UInt8(truncatingIfNeeded: $0 >> 8) }
            self.greens = greens
            bits = transform.bits
            codedWidth = transform.codedWidth
            guard bits > 0 else {
                bundles = []
                return
            }
            let perPixelBits = 8 >> bits, perWord = 1 << bits, indexMask = (1 << perPixelBits) - 1
            bundles = (0..<256).map { byte in
                var values: UInt64 = 0
                for k in 0..<perWord {
                    // The palette has 1 << perPixelBits entries (padded), the index is masked to fit.
                    values |= UInt64(greens[(byte >> (k * perPixelBits)) & indexMask]) << (8 * k)
                }
                return values
            }
        }

        /// Writes the `width` alpha values of one coded row (`codedWidth` words, indices
        /// in the green channel, the first pixel in the lowest bits) to `target`.
        func map(_ coded: UnsafePointer<UInt32>, into target: UnsafeMutablePointer<UInt8>, width: Int) {
            greens.withUnsafeBufferPointer { greens in
                guard let table = greens.baseAddress else { return }
                if bits == 0 {
                    for x in 0..<width {
                        // Safe: the palette has 256 entries, the index is a byte.
                        target[x] = table[Int((coded[x] >> 8) & 0xff)]
                    }
                    return
                }
                let perPixelBits = UInt32(8 >> bits)
                let indexMask = UInt32((1 << perPixelBits) - 1)
                let perWord = 1 << bits
                var x = 0, word = 0
                bundles.withUnsafeBufferPointer { bundles in
                    guard let spread = bundles.baseAddress else { return }
                    while x &+ 8 <= width {
                        // Safe: 8 bytes from x are inside the row (the bytes past this word's values
                        // are rewritten by the next words); word < codedWidth while x < width; the
                        // table has 256 entries.
                        let values = spread[Int((coded[word] >> 8) & 0xff)]
                        UnsafeMutableRawPointer(target + x).storeBytes(of: values.littleEndian, as: UInt64.self)
                        x &+= perWord
                        word &+= 1
                    }
                }
                while x < width {
                    // Safe: word < codedWidth = ceil(width / perWord) while x < width.
                    var packed = coded[word] >> 8
                    let end = Swift.min(x &+ perWord, width)
                    while x < end {
                        // Safe: the palette has 1 << perPixelBits entries, the index is masked to fit.
                        target[x] = table[Int(packed & indexMask)]
                        packed >>= perPixelBits
                        x &+= 1
                    }
                    word &+= 1
                }
            }
        }
    }
}
