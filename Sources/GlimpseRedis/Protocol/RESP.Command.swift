extension RESP {
    /// A command as clients send it: an array of bulk strings, the name first
    /// (protocol spec, "Sending commands to a Redis server").
    public struct Command: Sendable, Equatable, CustomStringConvertible {
        /// The name and arguments, binary-safe.
        public var arguments: [[UInt8]]

        public init(arguments: [[UInt8]]) {
            self.arguments = arguments
        }

        /// `name` followed by `arguments`, each a string or bytes.
        public init(_ name: String, _ arguments: any Argument...) {
            self.arguments = [Array(name.utf8)] + arguments.map(\.respBytes)
        }

        /// The command's name, upper-cased (for errors and logs; arguments may hold secrets).
        public var name: String {
            arguments.first.map { String(decoding: $0, as: UTF8.self).uppercased() } ?? ""
        }

        public var description: String { name }

        /// A value that can be an argument: its bytes as sent.
        public protocol Argument: Sendable {
            var respBytes: [UInt8] { get }
        }
    }
}

extension String: RESP.Command.Argument {
    public var respBytes: [UInt8] { Array(utf8) }
}

extension Array: RESP.Command.Argument where Element == UInt8 {
    public var respBytes: [UInt8] { self }
}

extension Int: RESP.Command.Argument {
    public var respBytes: [UInt8] { Array(String(self).utf8) }
}
