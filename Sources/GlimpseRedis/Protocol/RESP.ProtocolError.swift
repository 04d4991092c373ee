extension RESP {
    /// Bytes that are not RESP, or exceed the parser's ``RESP/Parser/Limits``. Permanent: the
    /// stream cannot be resynchronised, so the connection that read them is closed.
    public enum ProtocolError: Error, Sendable, Equatable {
        /// A reply began with a byte that is no RESP2 or RESP3 type.
        case unknownType(UInt8)
        /// A line ended with CR not followed by LF.
        case invalidLineEnding
        /// No CRLF within the limit (simple strings, errors, numbers and headers are lines).
        case lineTooLong(limit: Int)
        /// An integer, length or count that is not a decimal number in range.
        case invalidNumber
        /// A double, boolean, big number or verbatim string that does not follow its grammar.
        case invalidScalar(type: UInt8)
        /// A bulk string, bulk error or verbatim string longer than the limit, or shorter than -1.
        case invalidLength(Int, limit: Int)
        /// An array, set, map, push or attribute set with more elements than the limit.
        case aggregateTooLarge(Int, limit: Int)
        /// Aggregates nested deeper than the limit.
        case nestingTooDeep(limit: Int)
        /// A bulk payload not followed by CRLF.
        case missingTerminator
    }
}
