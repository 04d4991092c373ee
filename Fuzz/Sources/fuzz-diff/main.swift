import DiffTargets
import Foundation

// Usage: fuzz-diff TARGET FILE...
// Runs each file through a differential target and prints one line per file:
// `agree FILE` or `disagree FILE: why`. Exits 1 when any file disagrees.
let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let target = DiffTarget(rawValue: name) else {
    let names = DiffTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("usage: fuzz-diff \(names) FILE...\n".utf8))
    exit(2)
}
var disagreements = 0
for path in arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else {
        print("unreadable \(path)")
        continue
    }
    if let why = target.run([UInt8](data)) {
        disagreements += 1
        print("disagree \(path): \(why)")
    } else {
        print("agree \(path)")
    }
}
exit(disagreements == 0 ? 0 : 1)
