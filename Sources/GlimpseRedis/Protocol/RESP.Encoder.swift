extension RESP {
    /// Writes commands (and, for test peers, replies) in RESP's wire form.
    public enum Encoder {
        /// Appends `command` as an array of bulk strings: `*N\r\n` then `$len\r\nbytes\r\n`
        /// per argument. Pipelining is appending several before one write.
        public static func append(_ command: Command, to bytes: inout [UInt8]) {
            bytes.reserveCapacity(bytes.count + command.arguments.reduce(16) { $0 + $1.count + 16 })
            appendHeader(UInt8(ascii: "*"), command.arguments.count, to: &bytes)
            for argument in command.arguments {
                appendBulk(argument, to: &bytes)
            }
        }

        /// The wire form of `command`.
        public static func encode(_ command: Command) -> [UInt8] {
            var bytes: [UInt8] = []
            append(command, to: &bytes)
            return bytes
        }

        /// Appends `value` as a server would send it: RESP3 types as RESP3, ``RESP/Value/null``
        /// as RESP3's `_` when `resp3`, else as RESP2's `$-1`. Errors are written as simple
        /// errors, so their text must not hold CR or LF.
        public static func append(_ value: Value, resp3: Bool = true, to bytes: inout [UInt8]) {
            switch value {
            case .simpleString(let text): appendLine(UInt8(ascii: "+"), text, to: &bytes)
            case .error(let text): appendLine(UInt8(ascii: "-"), text, to: &bytes)
            case .integer(let number): appendLine(UInt8(ascii: ":"), String(number), to: &bytes)
            case .bulkString(let payload): appendBulk(payload, to: &bytes)
            case .null:
                if resp3 { appendLine(UInt8(ascii: "_"), "", to: &bytes) } else { appendHeader(UInt8(ascii: "$"), -1, to: &bytes) }
            case .array(let elements): appendAggregate(UInt8(ascii: "*"), elements, resp3: resp3, to: &bytes)
            case .set(let elements): appendAggregate(UInt8(ascii: "~"), elements, resp3: resp3, to: &bytes)
            case .push(let elements): appendAggregate(UInt8(ascii: ">"), elements, resp3: resp3, to: &bytes)
            case .map(let pairs): appendPairs(UInt8(ascii: "%"), pairs, resp3: resp3, to: &bytes)
            case .attributed(let attributes, let inner):
                appendPairs(UInt8(ascii: "|"), attributes, resp3: resp3, to: &bytes)
                append(inner, resp3: resp3, to: &bytes)
            case .double(let number):
                let text = number.isNaN ? "nan" : number.isInfinite ? (number < 0 ? "-inf" : "inf") : String(number)
                appendLine(UInt8(ascii: ","), text, to: &bytes)
            case .boolean(let flag): appendLine(UInt8(ascii: "#"), flag ? "t" : "f", to: &bytes)
            case .bigNumber(let digits): appendLine(UInt8(ascii: "("), digits, to: &bytes)
            case .verbatimString(let format, let text):
                let payload = Array(format.utf8) + [UInt8(ascii: ":")] + text
                appendHeader(UInt8(ascii: "="), payload.count, to: &bytes)
                bytes.append(contentsOf: payload)
                bytes.append(contentsOf: crlf)
            }
        }

        private static let crlf: [UInt8] = [13, 10]

        private static func appendHeader(_ type: UInt8, _ count: Int, to bytes: inout [UInt8]) {
            appendLine(type, String(count), to: &bytes)
        }

        private static func appendLine(_ type: UInt8, _ text: String, to bytes: inout [UInt8]) {
            bytes.append(type)
            bytes.append(contentsOf: text.utf8)
            bytes.append(contentsOf: crlf)
        }

        private static func appendBulk(_ payload: [UInt8], to bytes: inout [UInt8]) {
            appendHeader(UInt8(ascii: "$"), payload.count, to: &bytes)
            bytes.append(contentsOf: payload)
            bytes.append(contentsOf: crlf)
        }

        private static func appendAggregate(_ type: UInt8, _ elements: [Value], resp3: Bool, to bytes: inout [UInt8]) {
            appendHeader(type, elements.count, to: &bytes)
            for element in elements { append(element, resp3: resp3, to: &bytes) }
        }

        private static func appendPairs(_ type: UInt8, _ pairs: [Value.Pair], resp3: Bool, to bytes: inout [UInt8]) {
            appendHeader(type, pairs.count, to: &bytes)
            for pair in pairs {
                append(pair.key, resp3: resp3, to: &bytes)
                append(pair.value, resp3: resp3, to: &bytes)
            }
        }
    }
}
