/// A failure that ends the command with exit status 1 and one
/// `error: <message>` line on standard error.
struct CommandFailure: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
