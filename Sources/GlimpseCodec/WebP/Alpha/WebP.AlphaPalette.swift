extension WebP {
    /// The colour-indexing transform of an `ALPH` chunk's lossless stream reduced to
    /// what alpha needs: the green byte of each palette entry (RFC 9649 §2.7.1.4: the
    /// plane is the green channel), so bundled indices become alpha values in one step
    /// (libwebp's `VP8LColorIndexInverseTransformAlpha` does the same).
    struct AlphaPalette {
        /// One entry per index a bundle can hold (the transform pads the palette to that size).
        private let greens: [UInt8]
        /// Pixels per coded word, as a shift (RFC 9649 §4.4).
        private let bits: Int
        let codedWidth: Int

        init(_ transform: LosslessTransform) {
            greens = transform.data.map { UInt8(truncatingIfNeeded: $0 >> 8) }
            bits = transform.bits
            codedWidth = transform.codedWidth
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
