extension AVIF.Decoder {
    /// The colour image decoded to planes (AV1 §7.18's output, a `grid`'s cells composed in
    /// raster order and cropped to its output size, ISO/IEC 23008-12 §6.6.2.3), and the alpha
    /// image's when there is one: what `avifdec` writes to a `.y4m`, before any colour
    /// conversion or `clap`/`irot`/`imir`. Call after ``append(_:)`` returned
    /// ``DecodingStatus/complete``.
    public func decodePlanes(applyingFilmGrain: Bool = true) throws(ImageDecodingError)
        -> (color: AVIF.DecodedPlanes, alpha: AVIF.DecodedPlanes?) {
        guard let primary, codedItems.count >= primary.color.codedItems.count else { throw .truncated }
        let cells = primary.color.codedItems.count
        var color = try Self.compose(Array(codedItems[0..<cells]), grid: primary.color.grid, limits: options.limits,
                                     applyingFilmGrain: applyingFilmGrain)
        if let points = primary.codePoints { color.isFullRange = points.isFullRange }
        var alpha: AVIF.DecodedPlanes?
        if let item = primary.alpha {
            let end = cells + item.codedItems.count
            guard codedItems.count >= end else { throw .truncated }
            alpha = try Self.compose(Array(codedItems[cells..<end]), grid: item.grid, limits: options.limits,
                                     applyingFilmGrain: applyingFilmGrain)
        }
        return (color, alpha)
    }

    /// One coded image, or a grid's cells placed at ( column × cell width, row × cell height ).
    private static func compose(_ items: [(id: UInt32, data: [UInt8], sequence: AVIF.SequenceHeader)],
                                grid: AVIF.ImageGrid?, limits: DecodingLimits,
                                applyingFilmGrain: Bool) throws(ImageDecodingError) -> AVIF.DecodedPlanes {
        guard let first = items.first else { throw .avif(.missingFrameHeader) }
        let cell = try AVIF.FrameDecoder.decode(first.data, sequence: first.sequence, limits: limits,
                                                applyFilmGrain: applyingFilmGrain)
        guard let grid else { return cell }
        try limits.checkDimensions(width: grid.outputWidth, height: grid.outputHeight)
        // The composed planes: at most three of the output's size, two bytes a sample.
        let (bytes, overflow) = (grid.outputWidth * grid.outputHeight).multipliedReportingOverflow(by: 6)
        guard !overflow, bytes <= limits.maxTotalBytes else { throw .limitExceeded(.totalBytes) }
        var output = AVIF.DecodedPlanes(width: grid.outputWidth, height: grid.outputHeight, like: cell)
        for (index, item) in items.enumerated() {
            let planes = index == 0 ? cell : try AVIF.FrameDecoder.decode(item.data, sequence: item.sequence,
                                                                          limits: limits,
                                                                          applyFilmGrain: applyingFilmGrain)
            guard planes.width == cell.width, planes.height == cell.height, planes.planes.count == cell.planes.count,
                  planes.bitDepth == cell.bitDepth else { throw .avif(.gridTiles) }
            output.place(planes, x: (index % grid.columns) * cell.width, y: (index / grid.columns) * cell.height)
        }
        return output
    }
}
