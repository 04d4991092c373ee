extension GIF {
    /// The four-pass row order of interlaced images (GIF89a Appendix E):
    /// every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    enum Interlace {
        /// The frame row that the `index`-th stored row of a frame of `height` rows belongs to.
        static func row(_ index: Int, height: Int) -> Int {
            let pass1 = (height &+ 7) >> 3
            if index < pass1 { return index &<< 3 }
            let pass2 = (height &+ 3) >> 3
            var rest = index &- pass1
            if rest < pass2 { return (rest &<< 3) &+ 4 }
            rest &-= pass2
            let pass3 = (height &+ 1) >> 2
            if rest < pass3 { return (rest &<< 2) &+ 2 }
            return ((rest &- pass3) &<< 1) &+ 1
        }
    }
}
