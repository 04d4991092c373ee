extension GIF {
    /// A clipped rectangle on the canvas.
    struct Rect: Sendable, Hashable {
        var x = 0, y = 0, width = 0, height = 0
        var isEmpty: Bool { width <= 0 || height <= 0 }
        var pixelCount: Int { isEmpty ? 0 : width &* height }

        /// The part of the frame rectangle that lies on a `canvasWidth`×`canvasHeight` canvas.
        init(clipping frame: ImageDescriptor, canvasWidth: Int, canvasHeight: Int) {
            let x0 = min(frame.left, canvasWidth), y0 = min(frame.top, canvasHeight)
            let x1 = min(frame.left &+ frame.width, canvasWidth), y1 = min(frame.top &+ frame.height, canvasHeight)
            self.init(x: x0, y: y0, width: max(0, x1 &- x0), height: max(0, y1 &- y0))
        }

        init(x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// The RGBA8 canvas frames are composed onto, with the operations of the
    /// disposal methods (GIF89a §23.c.iv). It starts transparent, as in browsers.
    struct Canvas: Sendable {
        let width: Int
        let height: Int
        /// RGBA8 rows, tightly packed.
        var pixels: [UInt8]

        /// Allocates `width * height * 4` bytes; the caller checked the budget.
        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: 0, count: width &* height &* 4)
        }

        /// Disposal 2: the rectangle becomes transparent.
        mutating func clear(_ rect: Rect) {
            guard !rect.isEmpty else { return }
            let rowBytes = rect.width &* 4
            pixels.withUnsafeMutableBytes { canvas in
                guard let base = canvas.baseAddress else { return }
                // The rectangle was clipped to the canvas, so every row span lies inside it.
                for y in rect.y..<(rect.y &+ rect.height) {
                    let start = (y &* width &+ rect.x) &* 4
                    (base + start).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
                }
            }
        }

        /// A copy of the rectangle's pixels, for disposal 3.
        func save(_ rect: Rect, into saved: inout [UInt8]) {
            saved.removeAll(keepingCapacity: true)
            guard !rect.isEmpty else { return }
            saved.reserveCapacity(rect.pixelCount &* 4)
            for y in rect.y..<(rect.y &+ rect.height) {
                let start = (y &* width &+ rect.x) &* 4
                saved.append(contentsOf: pixels[start..<(start &+ rect.width &* 4)])
            }
        }

        /// Disposal 3: puts back what ``save(_:into:)`` kept.
        mutating func restore(_ rect: Rect, from saved: [UInt8]) {
            guard !rect.isEmpty, saved.count == rect.pixelCount &* 4 else { return }
            let rowBytes = rect.width &* 4
            for row in 0..<rect.height {
                let start = ((rect.y &+ row) &* width &+ rect.x) &* 4
                pixels.replaceSubrange(start..<(start &+ rowBytes), with: saved[(row &* rowBytes)..<((row &+ 1) &* rowBytes)])
            }
        }

        /// Paints `count` palette indices onto row `y` from column `x`, through `table`
        /// (entries of 0 leave the canvas as it is). The caller clipped the span to the canvas.
        mutating func paint(_ indices: UnsafePointer<UInt8>, count: Int, x: Int, y: Int, table: ColorTable) {
            guard count > 0 else { return }
            let start = (y &* width &+ x) &* 4
            let hasHoles = table.hasHoles
            table.entries.withUnsafeBufferPointer { entries in
                pixels.withUnsafeMutableBytes { canvas in
                    // `start + 4 * count` stays within the row (clipped span); entries has 256 values.
                    guard let base = canvas.baseAddress else { return }
                    let row = base + start
                    if hasHoles {
                        for i in 0..<count {
                            let value = entries[Int(indices[i])]
                            if value != 0 { row.storeBytes(of: value, toByteOffset: i &<< 2, as: UInt32.self) }
                        }
                    } else {
                        for i in 0..<count { row.storeBytes(of: entries[Int(indices[i])], toByteOffset: i &<< 2, as: UInt32.self) }
                    }
                }
            }
        }
    }
}
