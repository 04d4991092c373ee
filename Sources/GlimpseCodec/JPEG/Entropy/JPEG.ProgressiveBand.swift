extension JPEG {
    /// One kind of scan kept in the coefficient store (T.81 §G.1.2: DC first,
    /// DC refinement, AC first, AC refinement; or a sequential scan of a frame
    /// coded in several scans), decoded block by block.
    ///
    /// `Decoder.decodeBlocks` is generic over it, so each kind gets its own MCU
    /// loop with the kind's state in registers, rather than one loop choosing the
    /// kind again for every block (callgrind: the shared loop cost a progressive
    /// decode 3 % more instructions).
    protocol ProgressiveBand {
        /// libjpeg decodes a DC refinement scan's blocks even after the data ran out
        /// (the zero bits it reads change nothing); every other kind leaves them alone.
        static var decodesWhenInsufficient: Bool { get }
        /// Decodes the block of scan component `index`. `false`: a DC predictor left
        /// the 32-bit range (libjpeg's JERR_BAD_DCT_COEF).
        mutating func decode(_ reader: inout BitReader, _ bytes: UnsafeBufferPointer<UInt8>, index: Int,
                             _ component: ScanComponent, _ block: UnsafeMutablePointer<Int16>) -> Bool
        /// A restart marker resets the DC predictors and the end-of-band run (T.81 §G.1.2.2).
        mutating func restart()
    }

    /// First DC scan: the difference to the component's predictor, shifted left by Al.
    struct DCFirstBand: ProgressiveBand {
        static var decodesWhenInsufficient: Bool { false }
        let al: Int
        var predictors = SIMD4<Int32>()

        init(al: Int) { self.al = al }

        @inline(__always)
        mutating func decode(_ reader: inout BitReader, _ bytes: UnsafeBufferPointer<UInt8>, index: Int,
                             _ component: ScanComponent, _ block: UnsafeMutablePointer<Int16>) -> Bool {
            var predictor = predictors[index]
            let ok = Decoder.decodeDCFirst(&reader, bytes, component.dcTable, al, &predictor, block)
            predictors[index] = predictor
            return ok
        }

        mutating func restart() { predictors = SIMD4() }
    }

    /// DC refinement: one more bit of every DC coefficient.
    struct DCRefineBand: ProgressiveBand {
        static var decodesWhenInsufficient: Bool { true }
        let bit: Int16

        init(al: Int) { bit = Int16(truncatingIfNeeded: 1 << al) }

        @inline(__always)
        func decode(_ reader: inout BitReader, _ bytes: UnsafeBufferPointer<UInt8>, index: Int,
                    _ component: ScanComponent, _ block: UnsafeMutablePointer<Int16>) -> Bool {
            if reader.bit(bytes) != 0 { block[0] |= bit }
            return true
        }

        func restart() {}
    }

    /// First AC scan of a band, with end-of-band runs. AC scans have one component,
    /// so the table is the scan's.
    struct ACFirstBand: ProgressiveBand {
        static var decodesWhenInsufficient: Bool { false }
        let header: ScanHeader
        let table: UnsafePointer<Int32>
        let zigzag: UnsafePointer<Int>
        var eobRun = 0

        init(header: ScanHeader, table: UnsafePointer<Int32>, zigzag: UnsafePointer<Int>) {
            self.header = header
            self.table = table
            self.zigzag = zigzag
        }

        @inline(__always)
        mutating func decode(_ reader: inout BitReader, _ bytes: UnsafeBufferPointer<UInt8>, index: Int,
                             _ component: ScanComponent, _ block: UnsafeMutablePointer<Int16>) -> Bool {
            Decoder.decodeACFirst(&reader, bytes, table, header, &eobRun, block, zigzag)
            return true
        }

        mutating func restart() { eobRun = 0 }
    }

    /// AC refinement: correction bits and new ±1 coefficients, with end-of-band runs.
    struct ACRefineBand: ProgressiveBand {
        static var decodesWhenInsufficient: Bool { false }
        let header: ScanHeader
        let table: UnsafePointer<Int32>
        let zigzag: UnsafePointer<Int>
        var eobRun = 0

        init(header: ScanHeader, table: UnsafePointer<Int32>, zigzag: UnsafePointer<Int>) {
            self.header = header
            self.table = table
            self.zigzag = zigzag
        }

        @inline(__always)
        mutating func decode(_ reader: inout BitReader, _ bytes: UnsafeBufferPointer<UInt8>, index: Int,
                             _ component: ScanComponent, _ block: UnsafeMutablePointer<Int16>) -> Bool {
            Decoder.decodeACRefine(&reader, bytes, table, header, &eobRun, block, zigzag)
            return true
        }

        mutating func restart() { eobRun = 0 }
    }

    /// A sequential scan of a frame whose scans share the coefficient store: the
    /// whole band over what earlier scans stored, as libjpeg's buffer keeps it.
    struct SequentialBand: ProgressiveBand {
        static var decodesWhenInsufficient: Bool { false }
        /// 64 zeroed coefficients, cleared again after each block.
        let scratch: UnsafeMutablePointer<Int16>
        let zigzag: UnsafePointer<Int>
        var predictors = SIMD4<Int32>()

        init(scratch: UnsafeMutablePointer<Int16>, zigzag: UnsafePointer<Int>) {
            self.scratch = scratch
            self.zigzag = zigzag
        }

        @inline(__always)
        mutating func decode(_ reader: inout BitReader, _ bytes: UnsafeBufferPointer<UInt8>, index: Int,
                             _ component: ScanComponent, _ block: UnsafeMutablePointer<Int16>) -> Bool {
            let decoded = Decoder.decodeSequentialBand(reader, bytes, component, predictors[index], block, scratch, zigzag)
            reader = decoded.reader
            predictors[index] = decoded.predictor
            return true
        }

        mutating func restart() { predictors = SIMD4() }
    }
}
