extension PAM {
    /// What is wrong with a PAM file (the payload of ``DecodingDefect/pam(_:)``).
    public enum Defect: Sendable, Hashable, CustomStringConvertible {
        /// The file does not start with `P7`.
        case signature
        /// A missing or unsupported WIDTH, HEIGHT, DEPTH or MAXVAL.
        case header

        public var description: String {
            switch self {
            case .signature: "PAM signature"
            case .header: "PAM header"
            }
        }
    }
}
