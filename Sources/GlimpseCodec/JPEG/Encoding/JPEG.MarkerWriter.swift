extension JPEG {
    /// Marker segments in the order and form libjpeg's `jcmarker.c` writes
    /// them (ITU T.81 §B.2; JFIF 1.02 §10; ICC.1 annex B.4; EXIF 2.3 §4.5.4).
    enum MarkerWriter {
        static func startOfImage(into out: inout [UInt8]) { out += [0xFF, 0xD8] }
        static func endOfImage(into out: inout [UInt8]) { out += [0xFF, 0xD9] }

        /// JFIF APP0, version 1.01 as libjpeg writes it, no thumbnail.
        static func jfif(density: PixelDensity?, into out: inout [UInt8]) {
            var unit: UInt8 = 0, x = 1, y = 1
            if let density, density.horizontal > 0, density.vertical > 0 {
                switch density.unit {
                case .aspectRatio: (unit, x, y) = (0, density.horizontal, density.vertical)
                case .perInch: (unit, x, y) = (1, density.horizontal, density.vertical)
                case .perCentimeter: (unit, x, y) = (2, density.horizontal, density.vertical)
                case .perMeter: (unit, x, y) = (2, (density.horizontal + 50) / 100, (density.vertical + 50) / 100)
                }
                if x < 1 || y < 1 || x > 0xFFFF || y > 0xFFFF { (unit, x, y) = (0, 1, 1) }
            }
            out += [0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, unit]
            appendUInt16(x, to: &out)
            appendUInt16(y, to: &out)
            out += [0, 0]
        }

        /// APP1 `Exif` with a big-endian TIFF header and one IFD entry: the orientation.
        static func exifOrientation(_ orientation: Orientation, into out: inout [UInt8]) {
            let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + orientation.exifTIFF
            out += [0xFF, 0xE1]
            appendUInt16(payload.count + 2, to: &out)
            out += payload
        }

        /// The profile in APP2 `ICC_PROFILE` segments of at most 65 519 bytes
        /// each, numbered from 1 (libjpeg's `jpeg_write_icc_profile`).
        static func iccProfile(_ profile: [UInt8], into out: inout [UInt8]) {
            let chunk = 65_519
            let count = (profile.count + chunk - 1) / chunk
            guard count > 0, count <= 255 else { return }
            for index in 0..<count {
                let piece = profile[(index * chunk)..<min(profile.count, (index + 1) * chunk)]
                out += [0xFF, 0xE2]
                appendUInt16(piece.count + 16, to: &out)
                out += Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(count)]
                out += piece
            }
        }

        /// DQT with one 8-bit table (steps in zig-zag order).
        static func quantizationTable(_ table: QuantizationTable, index: Int, into out: inout [UInt8]) {
            out += [0xFF, 0xDB, 0, 67, UInt8(index)]
            out += table.zigZagBytes
        }

        /// SOF0 (baseline) or SOF2 (progressive).
        static func frame(_ layout: EncodingLayout, progressive: Bool, into out: inout [UInt8]) {
            out += [0xFF, progressive ? 0xC2 : 0xC0]
            appendUInt16(8 + 3 * layout.components.count, to: &out)
            out.append(8)
            appendUInt16(layout.height, to: &out)
            appendUInt16(layout.width, to: &out)
            out.append(UInt8(layout.components.count))
            for component in layout.components {
                out += [component.identifier, UInt8(component.horizontalSampling << 4 | component.verticalSampling),
                        UInt8(component.table)]
            }
        }

        /// DHT with one table; `slot` as ``EntropySink`` numbers them (0, 1 DC; 2, 3 AC).
        static func huffmanTable(_ table: HuffmanCodeTable, slot: Int, into out: inout [UInt8]) {
            let bytes = table.segmentBytes
            out += [0xFF, 0xC4]
            appendUInt16(bytes.count + 3, to: &out)
            out.append(slot >= 2 ? UInt8(0x10 | (slot - 2)) : UInt8(slot))
            out += bytes
        }

        static func restartInterval(_ interval: Int, into out: inout [UInt8]) {
            out += [0xFF, 0xDD, 0, 4]
            appendUInt16(interval, to: &out)
        }

        /// SOS; table selectors 0 where the scan uses none, as libjpeg writes them.
        static func scanHeader(_ scan: ScanSpec, layout: EncodingLayout, into out: inout [UInt8]) {
            out += [0xFF, 0xDA]
            appendUInt16(6 + 2 * scan.components.count, to: &out)
            out.append(UInt8(scan.components.count))
            for c in scan.components {
                let component = layout.components[c]
                let dc = scan.spectralStart == 0 && scan.approximationHigh == 0 ? component.table : 0
                let ac = scan.spectralEnd != 0 ? component.table : 0
                out += [component.identifier, UInt8(dc << 4 | ac)]
            }
            out += [UInt8(scan.spectralStart), UInt8(scan.spectralEnd),
                    UInt8(scan.approximationHigh << 4 | scan.approximationLow)]
        }

        static func appendUInt16(_ value: Int, to out: inout [UInt8]) {
            out.append(UInt8(truncatingIfNeeded: value >> 8))
            out.append(UInt8(truncatingIfNeeded: value))
        }
    }
}
