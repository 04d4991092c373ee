extension RESP {
    /// One reply as the server sent it (protocol spec, "RESP protocol description").
    ///
    /// RESP2's null bulk string (`$-1`) and null array (`*-1`) and RESP3's null (`_`) are all
    /// ``null``: no command this library sends tells them apart.
    public indirect enum Value: Sendable, Equatable {
        /// `+` simple string.
        case simpleString(String)
        /// `-` simple error, or RESP3's `!` bulk error: the text after the type byte,
        /// whose first word is the error code (`ERR`, `WRONGPASS`, `NOPROTO`…).
        case error(String)
        /// `:` integer (signed 64-bit).
        case integer(Int64)
        /// `$` bulk string: binary-safe bytes.
        case bulkString([UInt8])
        /// `$-1`, `*-1` or `_`.
        case null
        /// `*` array.
        case array([Value])
        /// RESP3 `%` map, in the order sent (keys may be any value, so not a dictionary).
        case map([Pair])
        /// RESP3 `~` set, in the order sent.
        case set([Value])
        /// RESP3 `,` double, including `inf`, `-inf` and `nan`.
        case double(Double)
        /// RESP3 `#t` / `#f`.
        case boolean(Bool)
        /// RESP3 `(` big number, as its decimal digits (with an optional leading `-`).
        case bigNumber(String)
        /// RESP3 `=` verbatim string: a three-letter format (`txt`, `mkd`) and the text.
        case verbatimString(format: String, text: [UInt8])
        /// RESP3 `>` push: out-of-band data (pub/sub messages, client-side caching
        /// invalidations) that is not the reply to any command.
        case push([Value])
        /// A reply preceded by RESP3 `|` attributes (auxiliary data such as key popularity);
        /// ``withoutAttributes`` gives the reply itself.
        case attributed(attributes: [Pair], value: Value)

        /// One key and value of a map or an attribute set.
        public struct Pair: Sendable, Equatable {
            public var key: Value
            public var value: Value

            public init(key: Value, value: Value) {
                self.key = key
                self.value = value
            }
        }

        /// The reply with any attributes in front of it removed.
        public var withoutAttributes: Value {
            if case .attributed(_, let value) = self { return value.withoutAttributes }
            return self
        }

        /// The bytes of a bulk, simple or verbatim string, else `nil`.
        public var bytes: [UInt8]? {
            switch withoutAttributes {
            case .bulkString(let bytes): bytes
            case .simpleString(let text): Array(text.utf8)
            case .verbatimString(_, let text): text
            default: nil
            }
        }
    }
}
