extension PNG {
    /// Draws APNG frames onto the canvas (APNG specification §4.2), so that each
    /// decoded frame is the fully composed image a viewer shows.
    ///
    /// The canvas starts fully transparent black. Each frame is blended into its
    /// region (SOURCE replaces, OVER composites with straight alpha), the canvas
    /// is shown, then the frame's dispose op prepares the canvas for the next
    /// frame: NONE keeps it, BACKGROUND clears the region to transparent black,
    /// PREVIOUS restores the region as it was before the frame (on the first
    /// frame PREVIOUS acts as BACKGROUND, as the specification says).
    struct Compositor: Sendable {
        private(set) var canvas: PixelBuffer

        init(width: Int, height: Int, format: PixelFormat) {
            canvas = PixelBuffer(width: width, height: height, format: format)
        }

        /// Draws `frame` at its control's region and returns the canvas to show.
        mutating func draw(_ frame: PixelBuffer, control: FrameControl, isFirst: Bool) -> PixelBuffer {
            var dispose = control.dispose
            if isFirst && dispose == .previous { dispose = .background }
            let bpp = canvas.format.bytesPerPixel
            let rowBytes = control.width &* bpp
            var saved: [UInt8] = []
            if dispose == .previous {
                saved.reserveCapacity(rowBytes &* control.height)
                for y in 0..<control.height {
                    let start = ((control.y &+ y) &* canvas.width &+ control.x) &* bpp
                    saved.append(contentsOf: canvas.bytes[start..<(start &+ rowBytes)])
                }
            }
            let wide = canvas.format == .rgba16
            let canvasWidth = canvas.width
            canvas.bytes.withUnsafeMutableBytes { out in
                frame.bytes.withUnsafeBytes { src in
                    guard let dst = out.baseAddress, let from = src.baseAddress else { return }
                    for y in 0..<control.height {
                        // fcTL parsing checked that the region lies inside the canvas.
                        let target = dst + ((control.y &+ y) &* canvasWidth &+ control.x) &* bpp
                        let source = from + y &* rowBytes
                        if control.blend == .source {
                            target.copyMemory(from: source, byteCount: rowBytes)
                        } else if wide {
                            Self.blendOver16(source, target, control.width)
                        } else {
                            Self.blendOver8(source, target, control.width)
                        }
                    }
                }
            }
            let shown = canvas
            switch dispose {
            case .none:
                break
            case .background:
                canvas.bytes.withUnsafeMutableBytes { out in
                    guard let dst = out.baseAddress else { return }
                    for y in 0..<control.height {
                        (dst + ((control.y &+ y) &* canvasWidth &+ control.x) &* bpp).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
                    }
                }
            case .previous:
                for y in 0..<control.height {
                    let start = ((control.y &+ y) &* canvasWidth &+ control.x) &* bpp
                    canvas.bytes.replaceSubrange(start..<(start &+ rowBytes), with: saved[(y &* rowBytes)..<((y &+ 1) &* rowBytes)])
                }
            }
            return shown
        }

        /// Straight-alpha OVER as the APNG specification's sample code does it.
        private static func blendOver8(_ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, _ count: Int) {
            for i in 0..<count {
                let s = source.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt8>.self)
                let sa = UInt32(s[3])
                if sa == 255 {
                    target.storeBytes(of: s, toByteOffset: i &* 4, as: SIMD4<UInt8>.self)
                } else if sa != 0 {
                    let d = target.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt8>.self)
                    let u = sa &* 255
                    let v = (255 &- sa) &* UInt32(d[3])
                    let al = u &+ v
                    let r = (UInt32(s[0]) &* u &+ UInt32(d[0]) &* v) / al
                    let g = (UInt32(s[1]) &* u &+ UInt32(d[1]) &* v) / al
                    let b = (UInt32(s[2]) &* u &+ UInt32(d[2]) &* v) / al
                    let out = SIMD4<UInt8>(UInt8(truncatingIfNeeded: r), UInt8(truncatingIfNeeded: g),
                                           UInt8(truncatingIfNeeded: b), UInt8(truncatingIfNeeded: al / 255))
                    target.storeBytes(of: out, toByteOffset: i &* 4, as: SIMD4<UInt8>.self)
                }
            }
        }

        private static func blendOver16(_ source: UnsafeRawPointer, _ target: UnsafeMutableRawPointer, _ count: Int) {
            for i in 0..<count {
                let s = source.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<UInt16>.self)
                let sa = UInt64(s[3])
                if sa == 65535 {
                    target.storeBytes(of: s, toByteOffset: i &* 8, as: SIMD4<UInt16>.self)
                } else if sa != 0 {
                    let d = target.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<UInt16>.self)
                    let u = sa &* 65535
                    let v = (65535 &- sa) &* UInt64(d[3])
                    let al = u &+ v
                    let r = (UInt64(s[0]) &* u &+ UInt64(d[0]) &* v) / al
                    let g = (UInt64(s[1]) &* u &+ UInt64(d[1]) &* v) / al
                    let b = (UInt64(s[2]) &* u &+ UInt64(d[2]) &* v) / al
                    let out = SIMD4<UInt16>(UInt16(truncatingIfNeeded: r), UInt16(truncatingIfNeeded: g),
                                            UInt16(truncatingIfNeeded: b), UInt16(truncatingIfNeeded: al / 65535))
                    target.storeBytes(of: out, toByteOffset: i &* 8, as: SIMD4<UInt16>.self)
                }
            }
        }
    }
}
