extension AVIF {
    /// The dequantization functions of §7.12.2: `dc_q`, `ac_q`, `get_dc_quant` and
    /// `get_ac_quant`, with the quantizer index and the frame's delta-q values passed in
    /// (the segment feature and delta-q logic of `get_qindex` stays with the tile decoder,
    /// which passes its result as `qindex`).
    struct Dequantizer: Sendable, Equatable {
        /// `BitDepth`.
        var bitDepth: Int
        /// `DeltaQYDc`, `DeltaQUDc`, `DeltaQUAc`, `DeltaQVDc`, `DeltaQVAc` (§5.9.12).
        var deltaQYDc = 0
        var deltaQUDc = 0
        var deltaQUAc = 0
        var deltaQVDc = 0
        var deltaQVAc = 0

        init(bitDepth: Int, deltaQYDc: Int = 0, deltaQUDc: Int = 0, deltaQUAc: Int = 0,
             deltaQVDc: Int = 0, deltaQVAc: Int = 0) {
            self.bitDepth = bitDepth
            self.deltaQYDc = deltaQYDc
            self.deltaQUDc = deltaQUDc
            self.deltaQUAc = deltaQUAc
            self.deltaQVDc = deltaQVDc
            self.deltaQVAc = deltaQVAc
        }

        /// The row of `Dc_Qlookup`/`Ac_Qlookup` for the bit depth: ( BitDepth - 8 ) >> 1.
        @inline(__always)
        static func depthRow(_ bitDepth: Int) -> Int {
            AV1Arithmetic.clip3(0, 2, (bitDepth - 8) >> 1)
        }

        /// `dc_q( b )`: Dc_Qlookup[ ( BitDepth - 8 ) >> 1 ][ Clip3( 0, 255, b ) ].
        static func dc_q(_ b: Int, bitDepth: Int) -> Int {
            AV1Tables.Dc_Qlookup[depthRow(bitDepth)][AV1Arithmetic.clip3(0, 255, b)]
        }

        /// `ac_q( b )`: Ac_Qlookup[ ( BitDepth - 8 ) >> 1 ][ Clip3( 0, 255, b ) ].
        static func ac_q(_ b: Int, bitDepth: Int) -> Int {
            AV1Tables.Ac_Qlookup[depthRow(bitDepth)][AV1Arithmetic.clip3(0, 255, b)]
        }

        /// `get_dc_quant( plane )` for the block's `qindex` (the value of get_qindex( 0, segment_id )).
        func getDcQuant(plane: Int, qindex: Int) -> Int {
            switch plane {
            case 0: return Self.dc_q(qindex &+ deltaQYDc, bitDepth: bitDepth)
            case 1: return Self.dc_q(qindex &+ deltaQUDc, bitDepth: bitDepth)
            default: return Self.dc_q(qindex &+ deltaQVDc, bitDepth: bitDepth)
            }
        }

        /// `get_ac_quant( plane )` for the block's `qindex` (the value of get_qindex( 0, segment_id )).
        func getAcQuant(plane: Int, qindex: Int) -> Int {
            switch plane {
            case 0: return Self.ac_q(qindex, bitDepth: bitDepth)
            case 1: return Self.ac_q(qindex &+ deltaQUAc, bitDepth: bitDepth)
            default: return Self.ac_q(qindex &+ deltaQVAc, bitDepth: bitDepth)
            }
        }
    }
}
