import GlimpseCodec
import Testing

@Suite("Transform: crop, flip, rotate by right angles, EXIF orientation")
struct GeometryTransformTests {
    typealias T = TransformTestImages
    /// 3×2 labels:  1 2 3 / 4 5 6.
    let source = T.labelled(width: 3, height: 2)

    @Test func cropKeepsTheRectangle() throws {
        let big = T.labelled(width: 5, height: 4)
        let cropped = try ImageTransformers.Crop(x: 1, y: 2, width: 3, height: 2).transform(big)
        #expect(cropped.width == 3 && cropped.height == 2)
        #expect(T.labels(cropped) == [[12, 13, 14], [17, 18, 19]])
        #expect(T.allPixels(cropped) == [11, 12, 13, 16, 17, 18].map { big.pixel(x: ($0 % 5), y: $0 / 5) })
    }

    @Test func cropOfTheWholeImageIsTheImage() throws {
        #expect(try ImageTransformers.Crop(x: 0, y: 0, width: 3, height: 2).transform(source) == source)
    }

    @Test(arguments: [(0, 0, 0, 1), (0, 0, 1, -1), (-1, 0, 1, 1), (0, 0, 4, 1), (2, 1, 2, 1), (0, 0, Int.max, 1),
                      (Int.max, Int.max, 1, 1)])
    func cropOutsideTheImageIsRefused(x: Int, y: Int, width: Int, height: Int) {
        let error = #expect(throws: TransformError.self) {
            try ImageTransformers.Crop(x: x, y: y, width: width, height: height).transform(source)
        }
        guard case .invalidParameter = error else { Issue.record("expected invalidParameter, got \(String(describing: error))"); return }
    }

    @Test func flips() throws {
        #expect(T.labels(try ImageTransformers.Flip(.horizontal).transform(source)) == [[3, 2, 1], [6, 5, 4]])
        #expect(T.labels(try ImageTransformers.Flip(.vertical).transform(source)) == [[4, 5, 6], [1, 2, 3]])
    }

    @Test func rightAngleRotationsAreExact() throws {
        #expect(T.labels(try ImageTransformers.Rotate(degrees: 90).transform(source)) == [[4, 1], [5, 2], [6, 3]])
        #expect(T.labels(try ImageTransformers.Rotate(degrees: 180).transform(source)) == [[6, 5, 4], [3, 2, 1]])
        #expect(T.labels(try ImageTransformers.Rotate(degrees: 270).transform(source)) == [[3, 6], [2, 5], [1, 4]])
        #expect(try ImageTransformers.Rotate(degrees: -90).transform(source) == ImageTransformers.Rotate(degrees: 270).transform(source))
        #expect(try ImageTransformers.Rotate(degrees: 450).transform(source) == ImageTransformers.Rotate(degrees: 90).transform(source))
        #expect(try ImageTransformers.Rotate(degrees: 360).transform(source) == source)
    }

    @Test func fourQuarterTurnsOfALargerImageComeBack() throws {
        let big = T.labelled(width: 37, height: 5)
        var current = big
        for _ in 0..<4 { current = try ImageTransformers.Rotate(degrees: 90).transform(current) }
        #expect(current == big)
    }

    /// Expected upright pixels for each EXIF orientation of the stored
    /// 1 2 3 / 4 5 6, written from the EXIF 2.32 tag 0x0112 descriptions.
    static let orientationCases: [(Orientation, [[Int]])] = [
        (.up, [[1, 2, 3], [4, 5, 6]]),
        (.upMirrored, [[3, 2, 1], [6, 5, 4]]),
        (.down, [[6, 5, 4], [3, 2, 1]]),
        (.downMirrored, [[4, 5, 6], [1, 2, 3]]),
        (.leftMirrored, [[1, 4], [2, 5], [3, 6]]),
        (.right, [[4, 1], [5, 2], [6, 3]]),
        (.rightMirrored, [[6, 3], [5, 2], [4, 1]]),
        (.left, [[3, 6], [2, 5], [1, 4]]),
    ]

    @Test(arguments: orientationCases)
    func autoOrientationAppliesEveryExifValue(orientation: Orientation, expected: [[Int]]) throws {
        var metadata = ImageMetadata()
        metadata.orientation = orientation
        let sixteen = source.converted(to: .rgba16)
        let image = Image(frames: [ImageFrame(pixels: source, duration: .milliseconds(40)),
                                   ImageFrame(pixels: source, duration: .milliseconds(60))],
                          loopCount: 0, format: .gif, metadata: metadata)
        let upright = try ImageTransformers.AutoOrient().transform(image)
        #expect(upright.metadata.orientation == .up)
        #expect(upright.frames.count == 2)
        #expect(upright.frames.map(\.duration) == [.milliseconds(40), .milliseconds(60)])
        for frame in upright.frames { #expect(T.labels(frame.pixels) == expected) }
        // RGBA16 takes the same path with 8-byte pixels.
        let upright16 = try ImageTransformers.AutoOrient().transform(Image(pixels: sixteen, format: .png, metadata: metadata))
        #expect(upright16.pixels == upright.pixels.converted(to: .rgba16))
        // Applying it again changes nothing: the orientation was reset.
        #expect(try ImageTransformers.AutoOrient().transform(upright) == upright)
    }
}
