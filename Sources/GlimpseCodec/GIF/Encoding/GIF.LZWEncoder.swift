extension GIF {
    /// The LZW compressor for GIF image data (GIF89a §22, Appendix F).
    ///
    /// Greedy longest match through a hash table keyed by (prefix code, next
    /// byte). Code widths follow the decoder's rule exactly (a code is one bit
    /// wider once the decoder's next free code reaches a power of two), and a
    /// clear code restarts the table when it is full.
    struct LZWEncoder {
        /// Compresses `indices` (each below `1 << minimumCodeSize`) and returns
        /// the LZW bytes, not yet cut into sub-blocks.
        static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
            var encoder = LZWEncoder(minimumCodeSize: minimumCodeSize)
            indices.withUnsafeBufferPointer { encoder.run($0) }
            return encoder.output
        }

        private static let hashSize = 8192
        private let clearCode: Int
        private let minimumCodeSize: Int
        private var output: [UInt8] = []
        private var bits: UInt64 = 0
        private var bitCount = 0
        private var codeSize: Int
        /// The decoder's next free code, mirrored to know the code width.
        private var decoderNext: Int
        private var firstAfterClear = true
        /// The encoder's next free code.
        private var next: Int
        /// Hash slots: key `prefix << 8 | byte` + 1 (0 = empty) and the code it maps to.
        private var keys: [UInt32]
        private var codes: [UInt16]

        private init(minimumCodeSize: Int) {
            self.minimumCodeSize = minimumCodeSize
            clearCode = 1 << minimumCodeSize
            codeSize = minimumCodeSize + 1
            decoderNext = clearCode + 2
            next = clearCode + 2
            keys = [UInt32](repeating: 0, count: Self.hashSize)
            codes = [UInt16](repeating: 0, count: Self.hashSize)
        }

        private mutating func emit(_ code: Int) {
            bits |= UInt64(code) << UInt64(bitCount)
            bitCount += codeSize
            while bitCount >= 8 {
                output.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                bitCount -= 8
            }
        }

        /// Emits a data code and updates the code width as the decoder will.
        private mutating func emitData(_ code: Int) {
            emit(code)
            if !firstAfterClear, decoderNext < LZWDecoder.tableSize { decoderNext += 1 }
            firstAfterClear = false
            if decoderNext == 1 << codeSize, codeSize < 12 { codeSize += 1 }
        }

        private mutating func clear() {
            emit(clearCode)
            codeSize = minimumCodeSize + 1
            decoderNext = clearCode + 2
            next = clearCode + 2
            firstAfterClear = true
            for i in keys.indices { keys[i] = 0 }
        }

        private mutating func run(_ input: UnsafeBufferPointer<UInt8>) {
            output.reserveCapacity(input.count / 2 + 16)
            clear()
            guard var prefix = input.first.map(Int.init) else {
                emit(clearCode + 1)
                flush()
                return
            }
            var i = 1
            while i < input.count {
                let byte = Int(input[i])
                let key = UInt32(prefix << 8 | byte) &+ 1
                var slot = (prefix &* 31 ^ byte &* 2_654_435_761) & (Self.hashSize - 1)
                var found = -1
                while keys[slot] != 0 {
                    if keys[slot] == key { found = Int(codes[slot]); break }
                    slot = (slot + 1) & (Self.hashSize - 1)
                }
                if found >= 0 {
                    prefix = found
                } else {
                    emitData(prefix)
                    if next < LZWDecoder.tableSize {
                        keys[slot] = key
                        codes[slot] = UInt16(next)
                        next += 1
                    } else {
                        clear()
                    }
                    prefix = byte
                }
                i += 1
            }
            emitData(prefix)
            emit(clearCode + 1)
            flush()
        }

        private mutating func flush() {
            if bitCount > 0 { output.append(UInt8(truncatingIfNeeded: bits)) }
            bits = 0
            bitCount = 0
        }
    }
}
