import Testing
import TestSupport
@testable import GlimpseCodec

/// Hand-built files, each broken in one way: every one gives a typed error, never a crash,
/// a hang or an allocation the limits did not allow.
@Suite struct AVIFHostileInputTests {
    typealias F = AVIFTestFile

    static func outcome(_ bytes: [UInt8], limits: DecodingLimits = DecodingLimits()) -> ImageDecodingError? {
        do {
            _ = try AVIF.Decoder.decode(bytes, options: DecodingOptions(limits: limits))
            return nil
        } catch {
            return error
        }
    }

    /// What the well-formed container around a four-byte frame OBU (a frame header with no
    /// tile data) gives: past the container and headers, the frame decoder's own defect. A
    /// broken container that still reaches it is accepted as far as the container goes.
    static let frameDataOutcome = outcome(F.still())

    @Test func wellFormedStillGivesInfoAndAFrameDefect() throws {
        let bytes = F.still(width: 64, height: 48)
        var decoder = AVIF.Decoder(options: DecodingOptions())
        #expect(try decoder.append(bytes) == .complete)
        let info = try #require(decoder.info)
        #expect(info.width == 64 && info.height == 48 && info.bitDepth == 8 && !info.hasAlpha && info.frameCount == 1)
        let coded = try #require(decoder.codedImage)
        #expect(coded.sequenceHeader.hasReducedStillPictureHeader && coded.firstFrame.frameType == .key)
        #expect(coded.firstFrame.frameWidth == 64 && coded.firstFrame.frameHeight == 48)
        do throws(ImageDecodingError) {
            _ = try decoder.finish()
            Issue.record("a frame without tile data decoded")
        } catch {
            #expect(error == Self.frameDataOutcome)
        }
        guard case .malformed(.avif(.av1))? = Self.frameDataOutcome else {
            Issue.record("\(String(describing: Self.frameDataOutcome))")
            return
        }
    }

    @Test func hugeBoxSizes() {
        var bytes = F.still()
        // mdat claims 2^32 - 1 bytes: the item's extent is inside, the box's end never comes.
        let mdat = bytes.count - (F.sequenceHeaderOBU(width: 64, height: 48).count + F.frameOBU().count) - 8
        bytes.replaceSubrange(mdat..<mdat + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.outcome(bytes) == Self.frameDataOutcome)
        // A 64-bit size past any buffer on meta.
        let ftypLength = 28
        var large = F.still()
        large.replaceSubrange(ftypLength..<ftypLength + 4, with: [0, 0, 0, 1])
        large.insert(contentsOf: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], at: ftypLength + 8)
        #expect(Self.outcome(large) == .limitExceeded(.totalBytes))
        // meta larger than the parsed-box bound.
        var big = F.still()
        big.replaceSubrange(ftypLength..<ftypLength + 4, with: [0x10, 0, 0, 0])
        #expect(Self.outcome(big) == .limitExceeded(.totalBytes))
        // A size below the header's own length.
        var small = F.still()
        small.replaceSubrange(ftypLength..<ftypLength + 4, with: [0, 0, 0, 4])
        #expect(Self.outcome(small) == .malformed(.avif(.box(.size(type: AVIF.BoxType("meta"), size: 4)))))
    }

    @Test func childRunningPastItsParent() throws {
        // An ipco child claiming more than ipco holds.
        let property = F.box("free", [0, 0])
        var bytes = F.still(extraProperties: [(property, false)])
        let index = try #require(bytes.indices.first { Array(bytes[$0..<$0 + 4]) == Array("free".utf8) }) - 4
        bytes.replaceSubrange(index..<index + 4, with: F.be32(4_000))
        guard case .malformed(.avif(.box(.pastParent))) = Self.outcome(bytes) else {
            Issue.record("\(String(describing: Self.outcome(bytes)))")
            return
        }
    }

    @Test func extentsPastTheEnd() {
        // The file ends before the extent does: truncated, once the input has ended.
        let bytes = F.still(extentLength: 1 << 20)
        var decoder = AVIF.Decoder(options: DecodingOptions())
        #expect((try? decoder.append(bytes)) == .needMoreData)
        #expect(decoder.info != nil)
        #expect(throws: ImageDecodingError.truncated) { try decoder.finish() }
        // An extent longer than the byte budget is refused before any copy.
        #expect(Self.outcome(F.still(extentLength: Int(UInt32.max))) == .limitExceeded(.totalBytes))
    }

    @Test func unknownEssentialPropertyIsUnsupported() {
        let bytes = F.still(extraProperties: [(F.box("zzzz", [1, 2, 3]), true)])
        #expect(Self.outcome(bytes) == .unsupported(.avif(.essentialProperty(AVIF.BoxType("zzzz")))))
        // The same property, not essential, is ignored.
        #expect(Self.outcome(F.still(extraProperties: [(F.box("zzzz", [1, 2, 3]), false)])) == Self.frameDataOutcome)
    }

    @Test func sizeLimitsFromIspe() {
        #expect(Self.outcome(F.still(width: 40_000, height: 48)) == .limitExceeded(.width))
        var limits = DecodingLimits()
        limits.maxPixelsPerFrame = 1_000
        #expect(Self.outcome(F.still(width: 64, height: 48), limits: limits) == .limitExceeded(.pixelsPerFrame))
    }

    /// A grid primary (item 2) of 65535×65535 in `idat`, its tiles item 1.
    static func grid(rowsMinusOne: UInt8, columnsMinusOne: UInt8, width: Int, height: Int, tiles: [Int]) -> [UInt8] {
        let payload: [UInt8] = [0, 0, rowsMinusOne, columnsMinusOne] + F.be16(width) + F.be16(height)
        var dimg = F.be16(2) + F.be16(tiles.count)
        for tile in tiles { dimg += F.be16(tile) }
        let iref = F.fullBox("iref", F.box("dimg", dimg))
        var bytes = F.still(items: [(2, "grid")], references: iref + F.box("idat", payload), primary: 2)
        // Item 2's location: construction method 1 (idat), in a version-1 iloc rewritten below.
        bytes = rewriteILOCForGrid(bytes, gridLength: payload.count)
        return bytes
    }

    /// Replaces the one-item version-0 `iloc` by a version-1 one that also places item 2 in `idat`.
    static func rewriteILOCForGrid(_ bytes: [UInt8], gridLength: Int) -> [UInt8] {
        guard let start = bytes.indices.first(where: { $0 + 4 <= bytes.count && Array(bytes[$0..<$0 + 4]) == Array("iloc".utf8) }) else {
            return bytes
        }
        let boxStart = start - 4
        let old = Array(bytes[boxStart..<boxStart + Int(F.be32Value(bytes, boxStart))])
        let offset = Array(old[(old.count - 8)..<(old.count - 4)]), length = Array(old[(old.count - 4)...])
        let entries = F.be16(1) + [0, 0] + [0, 0] + F.be16(1) + offset + length
            + F.be16(2) + [0, 1] + [0, 0] + F.be16(1) + F.be32(0) + F.be32(UInt32(gridLength))
        let new = F.fullBox("iloc", version: 1, [0x44, 0x00] + F.be16(2) + entries)
        var result = bytes
        result.replaceSubrange(boxStart..<boxStart + old.count, with: new)
        // meta grew: fix its size and the mdat offset of item 1.
        let delta = new.count - old.count
        let metaStart = 28
        result.replaceSubrange(metaStart..<metaStart + 4, with: F.be32(F.be32Value(result, metaStart) + UInt32(delta)))
        let offsetAt = boxStart + 8 + 4 + 2 + 2 + 2 + 2 + 2 + 2
        result.replaceSubrange(offsetAt..<offsetAt + 4, with: F.be32(F.be32Value(result, offsetAt) + UInt32(delta)))
        return result
    }

    @Test func hugeGridIsRefusedByTheLimits() {
        let bytes = Self.grid(rowsMinusOne: 255, columnsMinusOne: 255, width: 65_535, height: 65_535, tiles: [1])
        #expect(Self.outcome(bytes) == .limitExceeded(.width))
    }

    @Test func gridWithTooFewTiles() {
        let bytes = Self.grid(rowsMinusOne: 1, columnsMinusOne: 1, width: 128, height: 96, tiles: [1])
        #expect(Self.outcome(bytes) == .malformed(.avif(.item(.gridTileCount(expected: 4, found: 1)))))
    }

    @Test func gridOfOneTileDecodesHeaders() {
        let bytes = Self.grid(rowsMinusOne: 0, columnsMinusOne: 0, width: 64, height: 48, tiles: [1])
        var decoder = AVIF.Decoder(options: DecodingOptions())
        _ = try? decoder.append(bytes)
        #expect(decoder.info?.width == 64 && decoder.info?.height == 48)
        #expect(Self.outcome(bytes) == Self.frameDataOutcome)
    }

    @Test func gridReferencingItself() {
        let bytes = Self.grid(rowsMinusOne: 0, columnsMinusOne: 1, width: 128, height: 48, tiles: [1, 2])
        #expect(Self.outcome(bytes) == .malformed(.avif(.item(.referenceCycle(2)))))
    }

    @Test func referenceToAnUnknownItem() {
        let iref = F.fullBox("iref", F.box("auxl", F.be16(1) + F.be16(1) + F.be16(9)))
        #expect(Self.outcome(F.still(references: iref))
            == .malformed(.avif(.item(.referenceToUnknownItem(type: AVIF.BoxType("auxl"), from: 1, to: 9)))))
    }

    @Test func alphaThatIsItsOwnMaster() {
        let auxC = F.fullBox("auxC", Array("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha".utf8) + [0])
        let iref = F.fullBox("iref", F.box("auxl", F.be16(1) + F.be16(1) + F.be16(1)))
        #expect(Self.outcome(F.still(extraProperties: [(auxC, false)], references: iref)) == .malformed(.avif(.item(.referenceCycle(1)))))
    }

    @Test func notAnAVIF() {
        var bytes = F.still()
        bytes.replaceSubrange(8..<12, with: Array("heic".utf8))
        bytes.replaceSubrange(16..<28, with: Array("heicmif1miaf".utf8))
        #expect(Self.outcome(bytes) == .malformed(.avif(.box(.noCompatibleBrand(major: AVIF.BoxType("heic"))))))
        #expect(Self.outcome(Array(F.still().dropFirst(28))) == .malformed(.avif(.box(.missingFileType))))
    }

    /// The fuzz target's invariant (one-shot and in pieces agree on info and outcome) and
    /// the `incremental` one, on mutations of the hand-built file and two small corpus files.
    @Test func fuzzInvariantsHoldOnMutations() throws {
        var bases = [F.still()]
        for name in ["microsoft/reduced_still_picture_header.avif", "microsoft/Summer_in_Tomsk_720p_5x4_grid.avif"] {
            if let url = Fixtures.corpus("avif/" + name) { bases.append(Array(try Fixtures.bytes(at: url).prefix(16 << 10))) }
        }
        var random = SplitMix(seed: 3301)
        for round in 0..<600 {
            var bytes = bases[round % bases.count]
            for _ in 0..<1 + Int(random.next() % 3) {
                let index = Int(random.next() % UInt64(min(bytes.count, 2_048)))
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            #expect(FuzzChecks.run(.avif, bytes) == nil, "round \(round)")
            if round % 4 == 0 { #expect(FuzzChecks.run(.incremental, bytes) == nil, "round \(round)") }
        }
    }

    @Test func mutatedBytesNeverCrash() {
        let base = F.still()
        var random = SplitMix(seed: 33)
        for _ in 0..<3_000 {
            var bytes = base
            for _ in 0..<1 + Int(random.next() % 4) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            _ = Self.outcome(bytes)
        }
    }
}

extension AVIFTestFile {
    static func be32Value(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
