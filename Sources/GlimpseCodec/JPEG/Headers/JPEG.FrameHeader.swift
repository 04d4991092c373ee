extension JPEG {
    /// A frame header (SOFn segment, T.81 §B.2.2).
    struct FrameHeader: Sendable, Hashable {
        struct Component: Sendable, Hashable {
            /// Component identifier Ci.
            var id: UInt8
            /// Horizontal and vertical sampling factors Hi, Vi (1…4).
            var h: Int
            var v: Int
            /// Quantisation table selector Tqi (0…3).
            var quantTable: Int
        }

        var progressive: Bool
        var width: Int
        var height: Int
        var components: [Component]

        var maxH: Int { components.reduce(1) { max($0, $1.h) } }
        var maxV: Int { components.reduce(1) { max($0, $1.v) } }

        /// Parses the segment body (after the length field).
        init(parsing body: ArraySlice<UInt8>, marker: UInt8) throws(ImageDecodingError) {
            let b = Array(body)
            guard b.count >= 6 else { throw .malformed(.jpeg(.segmentTooShort(marker: marker))) }
            let precision = Int(b[0])
            guard precision == 8 else {
                if precision == 12 || precision == 16 { throw .unsupported(.jpegSamplePrecision(precision)) }
                throw .malformed(.jpeg(.samplePrecision(precision)))
            }
            height = Int(b[1]) << 8 | Int(b[2])
            width = Int(b[3]) << 8 | Int(b[4])
            let count = Int(b[5])
            // Height 0 announces a DNL marker after the first scan (T.81 §B.2.5);
            // libjpeg does not support it either.
            guard height > 0 else { throw .malformed(.jpeg(.zeroHeight)) }
            guard width > 0 else { throw .malformed(.jpeg(.zeroWidth)) }
            guard (1...4).contains(count) else {
                if count == 0 { throw .malformed(.jpeg(.noComponents)) }
                throw .unsupported(.jpegComponentCount(count))
            }
            // libjpeg's get_sof wants exactly three bytes per component.
            guard b.count == 6 + 3 * count else { throw .malformed(.jpeg(.segmentTooShort(marker: marker))) }
            var components: [Component] = []
            for i in 0..<count {
                let base = 6 + 3 * i
                let h = Int(b[base + 1] >> 4), v = Int(b[base + 1] & 15)
                guard (1...4).contains(h), (1...4).contains(v) else { throw .malformed(.jpeg(.samplingFactors(horizontal: h, vertical: v))) }
                // The table is checked when a scan first uses the component (libjpeg's latch_quant_tables).
                let tq = Int(b[base + 2])
                components.append(Component(id: b[base], h: h, v: v, quantTable: tq))
            }
            self.components = components
            self.progressive = marker == Marker.sof2
        }
    }

    /// A scan header (SOS segment, T.81 §B.2.3).
    struct ScanHeader: Sendable, Hashable {
        struct Component: Sendable, Hashable {
            /// Index into the frame's components.
            var index: Int
            var dcTable: Int
            var acTable: Int
        }

        var components: [Component]
        /// Spectral selection start and end (Ss, Se) and successive
        /// approximation high and low bits (Ah, Al).
        var ss: Int
        var se: Int
        var ah: Int
        var al: Int
        /// A sequential scan whose Ss, Se, Ah, Al are not 0, 63, 0, 0 (libjpeg warns,
        /// JWRN_NOT_SEQUENTIAL, and decodes the whole band anyway).
        var nonSequentialParameters = false

        init(parsing body: ArraySlice<UInt8>, frame: FrameHeader) throws(ImageDecodingError) {
            let b = Array(body)
            guard let first = b.first else { throw .malformed(.jpeg(.segmentTooShort(marker: Marker.sos))) }
            let count = Int(first)
            // libjpeg's get_sos wants the length to be exactly what the count implies.
            guard (1...4).contains(count), b.count == 1 + 2 * count + 3 else { throw .malformed(.jpeg(.scanHeader)) }
            var components: [Component] = []
            // libjpeg-turbo's get_sos accepts frame component ci for the i-th scan component only
            // while scan slot ci is empty (`!cur_comp_info[ci]`, and slots below i are filled) and
            // ci < 4: the id is looked for among frame components i..<4, so scan components must
            // follow the frame's order (T.81 §B.2.3) and a fifth frame component is in no scan.
            let searchEnd = min(frame.components.count, 4)
            for i in 0..<count {
                let id = b[1 + 2 * i], tables = b[2 + 2 * i]
                guard i < searchEnd, let index = (i..<searchEnd).first(where: { frame.components[$0].id == id }) else {
                    throw .malformed(.jpeg(.scanComponent(id: id)))
                }
                guard !components.contains(where: { $0.index == index }) else { throw .malformed(.jpeg(.repeatedScanComponent)) }
                // Checked where the scan uses a table (libjpeg's `jpeg_make_d_derived_tbl`): an AC
                // scan of a progressive frame may name any DC table, even one above 3.
                let td = Int(tables >> 4), ta = Int(tables & 15)
                components.append(Component(index: index, dcTable: td, acTable: ta))
            }
            self.components = components
            let base = 1 + 2 * count
            ss = Int(b[base])
            se = Int(b[base + 1])
            ah = Int(b[base + 2] >> 4)
            al = Int(b[base + 2] & 15)
            if frame.progressive {
                // The checks libjpeg makes before a progressive scan (T.81 §G.1.1.1.1).
                var bad = false
                if ss == 0 {
                    if se != 0 { bad = true }
                } else {
                    if ss > se || se > 63 { bad = true }
                    if count != 1 { bad = true }
                }
                if ah != 0 && al != ah - 1 { bad = true }
                if al > 13 { bad = true }
                if bad { throw .malformed(.jpeg(.progressionParameters(ss: ss, se: se, ah: ah, al: al))) }
            } else {
                // Sequential scans always carry the whole band.
                nonSequentialParameters = ss != 0 || se != 63 || ah != 0 || al != 0
                ss = 0; se = 63; ah = 0; al = 0
            }
        }
    }
}
