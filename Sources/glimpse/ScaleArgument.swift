import ArgumentParser

/// A decoding scale written `1/N` (N = 1, 2, 4 or 8): JPEG's DCT-domain scaling.
struct ScaleArgument: ExpressibleByArgument, Sendable {
    var denominator: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/")
        guard parts.count == 2, parts[0] == "1", let denominator = Int(parts[1]), [1, 2, 4, 8].contains(denominator) else {
            return nil
        }
        self.denominator = denominator
    }

    static var defaultCompletionKind: CompletionKind { .list(["1/1", "1/2", "1/4", "1/8"]) }
}
