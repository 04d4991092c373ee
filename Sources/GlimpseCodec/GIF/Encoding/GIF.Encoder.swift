extension GIF {
    /// Writes images as GIF89a: every frame with its delay, the loop count, and
    /// transparency (alpha below 128).
    ///
    /// Frames are full canvases (what ``GIF/Decoder`` returns). After the first,
    /// each is cropped to the rectangle that changed since the previous one and
    /// drawn over it (disposal "none"); where pixels must turn transparent, the
    /// previous frame is disposed to background instead. Frames with at most 256
    /// colours (255 with transparency) are written losslessly, with a palette
    /// built from their pixels; others are quantised by median cut, optionally
    /// with Floyd–Steinberg dithering.
    public struct Encoder: Sendable {
        /// Encoder settings.
        public struct Options: Sendable, Hashable {
            /// Diffuse the quantisation error (Floyd–Steinberg) when a frame has
            /// more than 256 colours. Default `false`.
            public var dithers: Bool
            /// Crop frames after the first to the changed rectangle. Default `true`.
            public var cropsToChanges: Bool

            public init(dithers: Bool = false, cropsToChanges: Bool = true) {
                self.dithers = dithers
                self.cropsToChanges = cropsToChanges
            }
        }

        /// Why an image cannot be written as GIF.
        public enum Error: Swift.Error, Sendable, Hashable {
            /// The image has no frame.
            case noFrames
            /// The canvas is wider or taller than 65 535 pixels, or empty.
            case unsupportedSize(width: Int, height: Int)
            /// A frame's size differs from the first frame's.
            case frameSizeMismatch(index: Int)
        }

        public var options: Options

        public init(options: Options = Options()) {
            self.options = options
        }

        /// Encodes `image` with `options`.
        public static func encode(_ image: Image, options: Options = Options()) throws(Error) -> [UInt8] {
            try Encoder(options: options).encode(image)
        }

        /// Encodes every frame of `image`; ``Image/loopCount`` becomes the NETSCAPE2.0
        /// loop field (plays − 1, 0 for forever; no extension when it plays once).
        public func encode(_ image: Image) throws(Error) -> [UInt8] {
            guard let first = image.frames.first else { throw .noFrames }
            let width = first.pixels.width, height = first.pixels.height
            guard (1...0xFFFF).contains(width), (1...0xFFFF).contains(height) else {
                throw .unsupportedSize(width: width, height: height)
            }
            for (index, frame) in image.frames.enumerated()
            where frame.pixels.width != width || frame.pixels.height != height {
                throw .frameSizeMismatch(index: index)
            }
            var writer = BlockWriter()
            writer.header(width: width, height: height)
            // Playing once is what a file without the extension means; field 0 would mean forever.
            if image.loopCount != 1 {
                writer.loopExtension(image.loopCount <= 0 ? 0 : min(0xFFFF, image.loopCount - 1))
            }
            // What a decoder shows before each frame is drawn, tracked as frames are planned.
            var shown = [UInt8](repeating: 0, count: width * height * 4)
            var planned: Plan?
            // One frame at a time: the working set is a few canvases, not the whole animation.
            for (index, frame) in image.frames.enumerated() {
                let canvas = Self.thresholded(frame.pixels.converted(to: .rgba8).bytes)
                var rect = Rect(x: 0, y: 0, width: width, height: height)
                // Pillow decodes an animation as RGB, losing all later transparency,
                // when its first frame has no transparent index: give it one.
                var followsClear = index == 0 && image.frames.count > 1
                if index > 0, var previous = planned {
                    let clears = Self.bounds(width: width, height: height) { p in canvas[p + 3] == 0 && shown[p + 3] != 0 }
                    if let clears {
                        // Pixels must turn transparent: widen the previous frame to cover
                        // them and dispose it to background (the widened part is unchanged,
                        // so it is written as "leave as is").
                        previous.rect = previous.rect.union(clears)
                        previous.disposal = .background
                    }
                    writeFrame(&writer, previous, width: width)
                    if previous.disposal == .background {
                        Self.clear(&shown, width: width, previous.rect)
                        followsClear = true
                    }
                    if options.cropsToChanges {
                        rect = Self.bounds(width: width, height: height) { p in
                            canvas[p + 3] != shown[p + 3] || (canvas[p + 3] != 0 && (canvas[p] != shown[p]
                                || canvas[p + 1] != shown[p + 1] || canvas[p + 2] != shown[p + 2]))
                        } ?? Rect(x: 0, y: 0, width: 1, height: 1)
                    }
                }
                // Pixels already shown need not be drawn again: as the transparent index
                // they usually compress better, and they leave room in the palette.
                var changes = canvas
                if index > 0 {
                    for y in rect.y..<(rect.y + rect.height) {
                        for p in stride(from: (y * width + rect.x) * 4, to: (y * width + rect.x + rect.width) * 4, by: 4)
                        where canvas[p + 3] != 0 && canvas[p] == shown[p] && canvas[p + 1] == shown[p + 1]
                            && canvas[p + 2] == shown[p + 2] && canvas[p + 3] == shown[p + 3] {
                            changes[p] = 0; changes[p + 1] = 0; changes[p + 2] = 0; changes[p + 3] = 0
                        }
                    }
                }
                Self.draw(canvas, on: &shown, width: width, rect)
                // Clamped as a Double first: a huge or negative duration must not trap.
                let centiseconds = (frame.duration / .milliseconds(10)).rounded()
                let delay = centiseconds.isNaN ? 0 : Int(min(65_535, max(0, centiseconds)))
                planned = Plan(rect: rect, disposal: .none, delay: delay, followsClear: followsClear,
                               canvas: canvas, changes: changes)
            }
            if let last = planned { writeFrame(&writer, last, width: width) }
            writer.trailer()
            return writer.bytes
        }

        /// A frame waiting to be written: its disposal is known only once the next frame is seen.
        private struct Plan {
            var rect: Rect
            var disposal: Disposal
            var delay: Int
            /// The previous frame was disposed to background (or this is the first of several).
            var followsClear: Bool
            /// The full canvas, and the same with pixels that were already shown made transparent.
            var canvas: [UInt8]
            var changes: [UInt8]
        }

        private func writeFrame(_ writer: inout BlockWriter, _ plan: Plan, width: Int) {
            // Pillow fills a disposal-2 rectangle with the frame's transparent index (the
            // background colour when there is none) and reads it through the next frame's
            // palette: both frames get transparent index 0 when the palette has room.
            let reserve = plan.disposal == .background || plan.followsClear
            var quantized = quantize(plan.changes, plan.rect, width: width, reserveTransparent: reserve)
            if !quantized.isExact {
                // The whole rectangle may still fit a palette when the changes alone do not.
                let whole = quantize(plan.canvas, plan.rect, width: width, reserveTransparent: reserve)
                if whole.isExact { quantized = whole }
            }
            writer.graphicControl(GraphicControl(disposal: plan.disposal, transparentIndex: quantized.transparentIndex,
                                                 delayCentiseconds: plan.delay))
            writer.image(plan.rect, palette: quantized.palette, indices: quantized.indices)
        }

        private func quantize(_ canvas: [UInt8], _ rect: Rect, width: Int, reserveTransparent: Bool) -> Quantizer.Result {
            var pixels = [UInt8]()
            pixels.reserveCapacity(rect.pixelCount * 4)
            for y in rect.y..<(rect.y + rect.height) {
                let start = (y * width + rect.x) * 4
                pixels += canvas[start..<(start + rect.width * 4)]
            }
            return Quantizer.quantize(pixels, width: rect.width, height: rect.height, dither: options.dithers,
                                      reserveTransparent: reserveTransparent)
        }

        /// RGBA8 with alpha reduced to 0 or 255 (and transparent pixels zeroed), as GIF can show it.
        static func thresholded(_ bytes: [UInt8]) -> [UInt8] {
            var out = bytes
            var p = 0
            while p + 3 < out.count {
                if out[p + 3] < 128 { out[p] = 0; out[p + 1] = 0; out[p + 2] = 0; out[p + 3] = 0 } else { out[p + 3] = 255 }
                p += 4
            }
            return out
        }

        /// The bounding box of the pixels (byte offsets) for which `test` holds, if any.
        static func bounds(width: Int, height: Int, _ test: (Int) -> Bool) -> Rect? {
            var minX = width, minY = height, maxX = -1, maxY = -1
            for y in 0..<height {
                for x in 0..<width where test((y * width + x) * 4) {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            guard maxX >= 0 else { return nil }
            return Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        }

        static func clear(_ shown: inout [UInt8], width: Int, _ rect: Rect) {
            for y in rect.y..<(rect.y + rect.height) {
                let start = (y * width + rect.x) * 4
                for i in start..<(start + rect.width * 4) { shown[i] = 0 }
            }
        }

        /// Draws the opaque pixels of `canvas` inside `rect` onto `shown`.
        static func draw(_ canvas: [UInt8], on shown: inout [UInt8], width: Int, _ rect: Rect) {
            for y in rect.y..<(rect.y + rect.height) {
                for x in rect.x..<(rect.x + rect.width) {
                    let p = (y * width + x) * 4
                    if canvas[p + 3] != 0 { for c in 0..<4 { shown[p + c] = canvas[p + c] } }
                }
            }
        }
    }
}

extension GIF.Rect {
    /// The smallest rectangle holding both.
    func union(_ other: GIF.Rect) -> GIF.Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(x, other.x), y0 = Swift.min(y, other.y)
        let x1 = Swift.max(x + width, other.x + other.width), y1 = Swift.max(y + height, other.y + other.height)
        return GIF.Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
