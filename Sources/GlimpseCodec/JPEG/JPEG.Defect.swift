extension JPEG {
    /// What is wrong with a JPEG file (the payload of ``DecodingDefect/jpeg(_:)``),
    /// by stage: marker framing, table and frame headers, scans, entropy data.
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        // Markers (T.81 §B.1).
        /// The file does not start with SOI (FF D8).
        case missingStartOfImage
        /// A second SOI.
        case duplicateStartOfImage
        /// A marker segment length below 2.
        case segmentLength(Int)
        /// A segment too short for its content; the payload is the marker's second byte (0xC4 for DHT…).
        case segmentTooShort(marker: UInt8)
        /// A marker T.81 does not define where one is expected.
        case unknownMarker(UInt8)
        /// EOI before any frame header.
        case missingFrame
        /// EOI before any scan.
        case missingScan

        // Tables (§B.2.4).
        /// A DHT table class above 1 or index above 3.
        case huffmanTableIndex(tableClass: Int, index: Int)
        /// A Huffman table whose code lengths over-subscribe the code space (§C).
        case huffmanTable
        /// A DC Huffman table with a symbol above 15 (§F.1.2.1).
        case huffmanDCSymbol
        /// A DQT table index above 3 or precision above 1.
        case quantizationTableIndex(index: Int, precision: Int)

        // Frame header (§B.2.2).
        /// A second SOF.
        case duplicateFrame
        /// A sample precision other than 8, 12 or 16.
        case samplePrecision(Int)
        /// A frame of height 0 (which would need a DNL segment, not supported).
        case zeroHeight
        /// A frame of width 0.
        case zeroWidth
        /// A frame with no components.
        case noComponents
        /// A component's sampling factors outside 1…4.
        case samplingFactors(horizontal: Int, vertical: Int)
        /// A component naming a quantisation table above 3.
        case componentQuantizationTable(Int)

        // Scans (§B.2.3).
        /// SOS before SOF.
        case scanBeforeFrame
        /// An SOS header with a component count outside 1…4, or too short for it.
        case scanHeader
        /// A scan naming a component the frame does not have.
        case scanComponent(id: UInt8)
        /// A component named twice in one scan.
        case repeatedScanComponent
        /// A scan's Huffman table selector above 3.
        case huffmanTableSelector
        /// A scan using a quantisation table no DQT defined.
        case undefinedQuantizationTable(Int)
        /// A scan using a Huffman table no DHT defined.
        case undefinedHuffmanTable(isAC: Bool, index: Int)
        /// Progressive scan parameters outside §G.1.1.1.1's rules.
        case progressionParameters(ss: Int, se: Int, ah: Int, al: Int)

        // Entropy-coded data (§F.2.2).
        /// A bit pattern no code of the Huffman table matches.
        case huffmanCode

        // Recovered in lenient mode, as libjpeg-turbo does.
        /// Bytes between a segment and the next marker (libjpeg's JWRN_EXTRANEOUS_DATA);
        /// the payload is how many were skipped and the marker found after them.
        case extraneousBytes(count: Int, marker: UInt8)
        /// The data ended before the image was complete (JWRN_JPEG_EOF); the
        /// missing entropy data reads as zeros.
        case prematureEnd
        /// The entropy decoder needed bits past the marker that ends its data
        /// (JWRN_HIT_MARKER, "premature end of data segment"): they read as
        /// zeros, and the rest of the restart interval as zero coefficients.
        case entropyDataEnded
        /// Another marker where restart marker RST`expected` was due
        /// (JWRN_MUST_RESYNC); resynchronised as `jpeg_resync_to_restart` does.
        case restartMarker(found: UInt8, expected: Int)
        /// A progressive scan out of sequence for a coefficient of a component
        /// (JWRN_BOGUS_PROGRESSION).
        case progressionSequence(component: Int, coefficient: Int)
        /// A JFIF APP0 segment whose major version is not 1 (JWRN_JFIF_MAJOR).
        case jfifVersion(major: UInt8, minor: UInt8)
        /// An Adobe APP14 colour transform code libjpeg does not know
        /// (JWRN_ADOBE_XFORM); YCbCr (three components) or YCCK (four) is assumed.
        case adobeTransform(UInt8)
        /// A sequential scan whose Ss, Se, Ah, Al are not 0, 63, 0, 0
        /// (JWRN_NOT_SEQUENTIAL); the whole band is decoded anyway.
        case sequentialScanParameters

        // Not recoverable (libjpeg fails too).
        /// A DAC segment with a table index above 31 or a DC bound L above U (libjpeg's JERR_DAC_INDEX, JERR_DAC_VALUE).
        case arithmeticConditioning(index: UInt8, value: UInt8)
        /// An interleaved scan whose MCU holds more than 10 blocks (T.81 §B.2.3; libjpeg's JERR_BAD_MCU_SIZE).
        case mcuSize(blocks: Int)
        /// A progressive DC value beyond 32 bits (libjpeg's JERR_BAD_DCT_COEF).
        case dcCoefficientRange
        /// A scan after the only scan of a sequential frame whose first scan held
        /// every component (libjpeg's JERR_EOI_EXPECTED).
        case scanAfterLastScan

        public var description: String {
            switch self {
            case .missingStartOfImage: "missing SOI marker"
            case .duplicateStartOfImage: "duplicate SOI marker"
            case .segmentLength(let n): "segment length \(n)"
            case .segmentTooShort(let marker): "\(Self.name(marker)) segment too short"
            case .unknownMarker(let marker): "unknown marker 0x\(String(marker, radix: 16))"
            case .missingFrame: "no frame before EOI"
            case .missingScan: "no scan before EOI"
            case .huffmanTableIndex(let tc, let th): "DHT table class \(tc) index \(th)"
            case .huffmanTable: "bad Huffman table"
            case .huffmanDCSymbol: "bad DC Huffman symbol"
            case .quantizationTableIndex(let tq, let pq): "DQT table \(tq) precision \(pq)"
            case .duplicateFrame: "duplicate SOF marker"
            case .samplePrecision(let p): "sample precision \(p)"
            case .zeroHeight: "image height 0 (DNL) is not supported"
            case .zeroWidth: "image width 0"
            case .noComponents: "no components"
            case .samplingFactors(let h, let v): "sampling factor \(h)x\(v)"
            case .componentQuantizationTable(let tq): "quantisation table \(tq)"
            case .scanBeforeFrame: "SOS before SOF"
            case .scanHeader: "bad SOS segment"
            case .scanComponent(let id): "scan names unknown component \(id)"
            case .repeatedScanComponent: "component repeated in scan"
            case .huffmanTableSelector: "Huffman table selector"
            case .undefinedQuantizationTable(let tq): "quantisation table \(tq) not defined"
            case .undefinedHuffmanTable(let isAC, let index): "Huffman table \(isAC ? "AC" : "DC")\(index) not defined"
            case .progressionParameters(let ss, let se, let ah, let al):
                "invalid progressive scan parameters Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)"
            case .huffmanCode: "bad Huffman code"
            case .extraneousBytes(let count, let marker):
                "\(count) extraneous bytes before marker 0x\(String(marker, radix: 16))"
            case .prematureEnd: "premature end of data"
            case .entropyDataEnded: "entropy-coded data ended early (premature end of data segment)"
            case .restartMarker(let found, let expected):
                "marker 0x\(String(found, radix: 16)) where RST\(expected) was expected"
            case .progressionSequence(let component, let coefficient):
                "inconsistent progression sequence for component \(component) coefficient \(coefficient)"
            case .jfifVersion(let major, let minor): "unknown JFIF revision \(major).\(minor)"
            case .adobeTransform(let transform): "unknown Adobe colour transform \(transform)"
            case .sequentialScanParameters: "sequential scan with progressive parameters"
            case .arithmeticConditioning(let index, let value): "DAC table \(index) value \(value)"
            case .mcuSize(let blocks): "\(blocks) blocks in an MCU"
            case .dcCoefficientRange: "DC coefficient out of range"
            case .scanAfterLastScan: "another scan after a sequential frame's only scan"
            }
        }

        private static func name(_ marker: UInt8) -> String {
            switch marker {
            case 0xC4: "DHT"
            case 0xDB: "DQT"
            case 0xDA: "SOS"
            case 0xDD: "DRI"
            case 0xC0...0xCF: "SOF\(marker - 0xC0)"
            default: "marker 0x\(String(marker, radix: 16))"
            }
        }
    }
}
