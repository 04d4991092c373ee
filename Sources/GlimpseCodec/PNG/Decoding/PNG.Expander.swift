extension PNG {
    /// Turns unfiltered scanlines into RGBA8 or RGBA16 pixels (PNG §13.12:
    /// palette lookup, tRNS to alpha, grey to RGB, sample depth scaling).
    ///
    /// Bit depths below 8 are scaled by replicating the bits (v·255/(2^n−1)), as
    /// libpng's `png_set_expand` does; 16-bit samples keep their high byte for
    /// RGBA8 output (libpng's `png_set_strip_16`). tRNS keys are compared at the
    /// stored depth, with libpng's masking of out-of-range keys.
    struct Expander: Sendable {
        enum Kind: Sendable {
            /// Grey at 1…8 bits or palette indices: each sample indexes `table`.
            case lookup(bits: Int)
            case gray16
            case grayAlpha8, grayAlpha16
            case rgb8, rgb16
            case rgba8, rgba16
        }

        let kind: Kind
        /// Output RGBA16 (16-bit sources only).
        let wide: Bool
        /// 256 RGBA8 entries for `.lookup`.
        let table: [UInt8]
        /// tRNS key for grey (`r` only) and RGB sources, already masked.
        let key: (r: UInt16, g: UInt16, b: UInt16)?

        init(header: Header, palette: [UInt8]?, transparency: [UInt8]?, wide: Bool) {
            self.wide = wide && header.bitDepth == 16
            let depth = header.bitDepth
            var key: (UInt16, UInt16, UInt16)?
            var table: [UInt8] = []
            switch header.colorType {
            case .grayscale:
                if let t = transparency, t.count >= 2 {
                    let value = UInt16(t[0]) << 8 | UInt16(t[1])
                    let mask: UInt16 = depth == 16 ? 0xFFFF : UInt16((1 << depth) - 1)
                    key = (value & mask, 0, 0)
                }
                if depth <= 8 {
                    let levels = 1 << depth
                    let scale = 255 / (levels - 1)
                    table = [UInt8](repeating: 0, count: 1024)
                    for v in 0..<256 {
                        let grey = UInt8(truncatingIfNeeded: (v & (levels - 1)) * scale)
                        table[v * 4] = grey
                        table[v * 4 + 1] = grey
                        table[v * 4 + 2] = grey
                        table[v * 4 + 3] = (key.map { Int($0.0) == v } ?? false) ? 0 : 255
                    }
                    kind = .lookup(bits: depth)
                } else {
                    kind = .gray16
                }
            case .indexed:
                // Entries past PLTE stay opaque black, as libpng leaves them.
                table = [UInt8](repeating: 0, count: 1024)
                for i in 0..<256 { table[i * 4 + 3] = 255 }
                if let palette {
                    for i in 0..<min(256, palette.count / 3) {
                        table[i * 4] = palette[i * 3]
                        table[i * 4 + 1] = palette[i * 3 + 1]
                        table[i * 4 + 2] = palette[i * 3 + 2]
                    }
                }
                if let transparency {
                    for i in 0..<min(256, transparency.count) { table[i * 4 + 3] = transparency[i] }
                }
                kind = .lookup(bits: depth)
            case .grayscaleAlpha:
                kind = depth == 8 ? .grayAlpha8 : .grayAlpha16
            case .rgb:
                if let t = transparency, t.count >= 6 {
                    let mask: UInt16 = depth == 16 ? 0xFFFF : 0xFF
                    key = ((UInt16(t[0]) << 8 | UInt16(t[1])) & mask, (UInt16(t[2]) << 8 | UInt16(t[3])) & mask,
                           (UInt16(t[4]) << 8 | UInt16(t[5])) & mask)
                }
                kind = depth == 8 ? .rgb8 : .rgb16
            case .rgba:
                kind = depth == 8 ? .rgba8 : .rgba16
            }
            self.table = table
            self.key = key
        }

        /// Bytes per output pixel.
        var outputBytesPerPixel: Int { wide ? 8 : 4 }

        /// Expands `count` pixels of the scanline at `src` into `dst`, writing
        /// pixel i at `dst + i * step` bytes.
        ///
        /// The caller guarantees `src` holds the row's bytes and that every
        /// written pixel lies inside the destination buffer.
        func expand(_ src: UnsafePointer<UInt8>, count: Int, into dst: UnsafeMutableRawPointer, step: Int) {
            switch kind {
            case .lookup(let bits):
                table.withUnsafeBytes { lut in
                    expandLookup(src, count, dst, step, bits, lut)
                }
            case .rgba8:
                if step == 4 {
                    dst.copyMemory(from: src, byteCount: count &* 4)
                } else {
                    for i in 0..<count {
                        dst.storeBytes(of: UnsafeRawPointer(src).loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self),
                                       toByteOffset: i &* step, as: UInt32.self)
                    }
                }
            case .rgb8:
                expandRGB8(src, count, dst, step)
            case .grayAlpha8:
                for i in 0..<count {
                    let g = src[i &* 2], a = src[i &* 2 &+ 1]
                    dst.storeBytes(of: SIMD4<UInt8>(g, g, g, a), toByteOffset: i &* step, as: SIMD4<UInt8>.self)
                }
            case .gray16, .grayAlpha16, .rgb16, .rgba16:
                expand16(src, count, dst, step)
            }
        }

        @inline(__always)
        private func expandLookup(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutableRawPointer, _ step: Int,
                                  _ bits: Int, _ lut: UnsafeRawBufferPointer) {
            guard let base = lut.baseAddress else { return }
            if bits == 8 {
                for i in 0..<count {
                    // Every byte value indexes one of the table's 256 entries.
                    dst.storeBytes(of: base.loadUnaligned(fromByteOffset: Int(src[i]) &* 4, as: UInt32.self),
                                   toByteOffset: i &* step, as: UInt32.self)
                }
                return
            }
            let perByte = 8 / bits
            let mask = (1 << bits) &- 1
            for i in 0..<count {
                let byte = Int(src[i / perByte])
                let shift = 8 &- bits &* (i % perByte &+ 1)
                let index = (byte >> shift) & mask
                dst.storeBytes(of: base.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self),
                               toByteOffset: i &* step, as: UInt32.self)
            }
        }

        @inline(__always)
        private func expandRGB8(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutableRawPointer, _ step: Int) {
            if let key {
                let kr = UInt8(truncatingIfNeeded: key.r), kg = UInt8(truncatingIfNeeded: key.g), kb = UInt8(truncatingIfNeeded: key.b)
                for i in 0..<count {
                    let r = src[i &* 3], g = src[i &* 3 &+ 1], b = src[i &* 3 &+ 2]
                    let a: UInt8 = (r == kr && g == kg && b == kb) ? 0 : 255
                    dst.storeBytes(of: SIMD4<UInt8>(r, g, b, a), toByteOffset: i &* step, as: SIMD4<UInt8>.self)
                }
            } else {
                // Four bytes per load (the fourth is the next pixel's red, replaced by
                // alpha); `i + 1 < count` keeps that load inside the row.
                let raw = UnsafeRawPointer(src)
                var i = 0
                while i &+ 1 < count {
                    let rgbx = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i &* 3, as: UInt32.self))
                    dst.storeBytes(of: (rgbx | 0xFF00_0000).littleEndian, toByteOffset: i &* step, as: UInt32.self)
                    i &+= 1
                }
                if i < count {
                    dst.storeBytes(of: SIMD4<UInt8>(src[i &* 3], src[i &* 3 &+ 1], src[i &* 3 &+ 2], 255),
                                   toByteOffset: i &* step, as: SIMD4<UInt8>.self)
                }
            }
        }

        /// 16-bit sources; samples are big-endian in the scanline.
        private func expand16(_ src: UnsafePointer<UInt8>, _ count: Int, _ dst: UnsafeMutableRawPointer, _ step: Int) {
            let raw = UnsafeRawPointer(src)
            @inline(__always) func sample(_ offset: Int) -> UInt16 {
                UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            }
            for i in 0..<count {
                let rgba: SIMD4<UInt16>
                switch kind {
                case .gray16:
                    let g = sample(i &* 2)
                    rgba = SIMD4(g, g, g, key.map { $0.r == g } ?? false ? 0 : 0xFFFF)
                case .grayAlpha16:
                    let g = sample(i &* 4)
                    rgba = SIMD4(g, g, g, sample(i &* 4 &+ 2))
                case .rgb16:
                    let r = sample(i &* 6), g = sample(i &* 6 &+ 2), b = sample(i &* 6 &+ 4)
                    let transparent = key.map { $0.r == r && $0.g == g && $0.b == b } ?? false
                    rgba = SIMD4(r, g, b, transparent ? 0 : 0xFFFF)
                default:
                    rgba = SIMD4(sample(i &* 8), sample(i &* 8 &+ 2), sample(i &* 8 &+ 4), sample(i &* 8 &+ 6))
                }
                if wide {
                    dst.storeBytes(of: rgba, toByteOffset: i &* step, as: SIMD4<UInt16>.self)
                } else {
                    dst.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: rgba &>> 8), toByteOffset: i &* step, as: SIMD4<UInt8>.self)
                }
            }
        }
    }
}
