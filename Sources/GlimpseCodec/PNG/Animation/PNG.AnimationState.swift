extension PNG {
    /// Where the decoder stands in an APNG's frame sequence (APNG §3–4).
    struct AnimationState: Sendable {
        /// The acTL values, when one valid acTL came before the first IDAT.
        var control: AnimationControl?
        var sawControl = false
        /// Two acTL chunks or impossible counts: the file is shown as a still image.
        var invalid = false
        /// Decided at the first IDAT: frames are decoded and composed.
        var isActive = false
        /// The sequence number the next fcTL or fdAT must carry.
        var nextSequence = 0
        /// The frame whose data is being received (its fcTL has been read).
        var current: FrameControl?
        var currentHasData = false
        var currentEmitted = false
        /// fcTL chunks accepted so far.
        var framesStarted = 0
        /// Frames beyond acTL's count are ignored.
        var ignoring = false
        var frames: [ImageFrame] = []
        var compositor: Compositor?
        var frameDecoder: ScanlineDecoder?
        var frameBuffer: PixelBuffer?
        /// The 4-byte sequence number at the start of an fdAT chunk, as it arrives.
        var sequenceBytes: [UInt8] = []
    }
}
