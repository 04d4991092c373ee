// SVG has no signature: it is XML whose root element is `svg`.

extension FormatSniffer {
    /// Skips a UTF-8 byte order mark, white space, the XML declaration,
    /// processing instructions, comments and a doctype, then expects `<svg`.
    static func matchSVG(_ input: SniffInput) -> MatchResult {
        var position = 0
        if input.count >= 1, input[0] == 0xEF {
            switch input.compare([0xEF, 0xBB, 0xBF]) {
            case .equal: position = 3
            case .incomplete: return .needMore(fallback: nil)
            case .different: return .noMatch
            }
        }
        while position < svgSearchLimit {
            while position < input.count, isXMLSpace(input[position]) { position += 1 }
            guard position < input.count else { return .needMore(fallback: nil) }
            guard input[position] == UInt8(ascii: "<") else { return .noMatch }
            // Which construct opens here?
            let constructs: [([UInt8], [UInt8])] = [
                (Array(ascii: "<?"), Array(ascii: "?>")),
                (Array(ascii: "<!--"), Array(ascii: "-->")),
                (Array(ascii: "<!DOCTYPE"), Array(ascii: ">")),
            ]
            var skipped = false
            for (open, close) in constructs {
                switch input.compare(open, at: position) {
                case .incomplete: return .needMore(fallback: nil)
                case .different: continue
                case .equal:
                    guard let end = find(close, in: input, from: position + open.count) else {
                        return input.count >= svgSearchLimit ? .noMatch : .needMore(fallback: nil)
                    }
                    position = end
                    skipped = true
                }
                break
            }
            if skipped { continue }
            switch input.compare(Array(ascii: "<svg"), at: position) {
            case .incomplete: return .needMore(fallback: nil)
            case .different: return .noMatch
            case .equal:
                let next = position + 4
                guard next < input.count else { return .needMore(fallback: nil) }
                let byte = input[next]
                return isXMLSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":")
                    ? .match(SniffedFormat(.svg)) : .noMatch
            }
        }
        return .noMatch
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The position just past the first occurrence of `needle` at or after `start`,
    /// searched no further than ``svgSearchLimit``.
    private static func find(_ needle: [UInt8], in input: SniffInput, from start: Int) -> Int? {
        let limit = min(input.count, svgSearchLimit + needle.count)
        var position = start
        while position + needle.count <= limit {
            if input.compare(needle, at: position) == .equal { return position + needle.count }
            position += 1
        }
        return nil
    }
}
