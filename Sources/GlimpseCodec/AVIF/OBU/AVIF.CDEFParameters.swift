extension AVIF {
    /// `cdef_params()` (AV1 §5.9.19, semantics §6.10.14): the strengths a 64×64 block's
    /// `cdef_idx` selects.
    struct CDEFParameters: Sendable {
        /// `CdefDamping`.
        var damping = 3
        var bits = 0
        var yPrimaryStrength = [0], ySecondaryStrength = [0]
        var uvPrimaryStrength = [0], uvSecondaryStrength = [0]
        /// Whether CDEF is off for the frame (`cdef_idx` is then never read, §5.11.56).
        var isDisabled = true

        mutating func read(_ reader: inout BitReader, frame: FrameParameters) throws(ImageDecodingError) {
            guard !frame.codedLossless, !frame.header.allowsIntraBlockCopy, frame.sequence.enablesCDEF else { return }
            isDisabled = false
            damping = try reader.bits(2) + 3
            bits = try reader.bits(2)
            let count = 1 << bits
            yPrimaryStrength = Array(repeating: 0, count: count)
            ySecondaryStrength = yPrimaryStrength
            uvPrimaryStrength = yPrimaryStrength
            uvSecondaryStrength = yPrimaryStrength
            for i in 0..<count {
                yPrimaryStrength[i] = try reader.bits(4)
                ySecondaryStrength[i] = try reader.bits(2)
                if ySecondaryStrength[i] == 3 { ySecondaryStrength[i] += 1 }
                if frame.numPlanes > 1 {
                    uvPrimaryStrength[i] = try reader.bits(4)
                    uvSecondaryStrength[i] = try reader.bits(2)
                    if uvSecondaryStrength[i] == 3 { uvSecondaryStrength[i] += 1 }
                }
            }
        }
    }
}
