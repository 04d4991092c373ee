extension JPEG {
    /// Marker codes (the byte after `0xFF`), T.81 table B.1.
    enum Marker {
        static let sof0: UInt8 = 0xC0   // baseline DCT
        static let sof1: UInt8 = 0xC1   // extended sequential DCT, Huffman
        static let sof2: UInt8 = 0xC2   // progressive DCT, Huffman
        static let sof3: UInt8 = 0xC3   // lossless, Huffman
        static let dht: UInt8 = 0xC4
        static let dac: UInt8 = 0xCC
        static let rst0: UInt8 = 0xD0
        static let rst7: UInt8 = 0xD7
        static let soi: UInt8 = 0xD8
        static let eoi: UInt8 = 0xD9
        static let sos: UInt8 = 0xDA
        static let dqt: UInt8 = 0xDB
        static let dnl: UInt8 = 0xDC
        static let dri: UInt8 = 0xDD
        static let app0: UInt8 = 0xE0
        static let app1: UInt8 = 0xE1
        static let app2: UInt8 = 0xE2
        static let app14: UInt8 = 0xEE
        static let com: UInt8 = 0xFE
        static let tem: UInt8 = 0x01

        static func isRestart(_ marker: UInt8) -> Bool { marker >= rst0 && marker <= rst7 }

        /// SOF markers of coding processes this decoder does not implement:
        /// lossless, hierarchical, arithmetic (T.81 table B.1).
        static func isUnsupportedFrame(_ marker: UInt8) -> Bool {
            switch marker {
            case 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF: true
            default: false
            }
        }
    }
}
