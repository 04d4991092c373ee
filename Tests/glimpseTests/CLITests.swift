import Foundation
import GlimpseCodec
import TestSupport
import Testing

/// Runs the built `glimpse` executable (it sits beside the test bundle).
enum CLI {
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // The test binary is inside `<build>/GlimpsePackageTests.xctest` or directly in `<build>`.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("glimpse").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("glimpse")
    }()

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static func run(_ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorData = err.fileHandleForReading.readDataToEndOfFile() }
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "glimpse \(arguments) died of a signal")
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }

    static func temporaryFile(_ bytes: [UInt8], name: String = "input.bin") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}

@Suite("glimpse CLI exit codes")
struct CLITests {
    @Test func garbageInputExitsOneWithOneErrorLine() throws {
        let garbage = try CLI.temporaryFile((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) })
        for arguments in [["info", garbage.path], ["decode", garbage.path, "-o", garbage.path + ".pam"], ["bench", "--iterations", "1", garbage.path]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: "), "\(arguments): \(result.standardError)")
        }
    }

    @Test func missingFileExitsOne() throws {
        let result = try CLI.run(["info", "/nonexistent/glimpse-test.png"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: /nonexistent/glimpse-test.png"))
    }

    @Test(arguments: [["decode"], ["decode", "x.png"], ["decode", "x.png", "-o", "y.pam", "--depth", "12"],
                      ["bench", "--iterations", "0", "x.png"], ["info"], ["frobnicate"], ["decode", "x", "-o", "y", "--scale", "1/3"]])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        #expect(try CLI.run(arguments).status == 2)
    }

    @Test func helpExitsZero() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE: glimpse"))
    }

    @Test func infoReportsFormatsWithoutDecoderByName() throws {
        let tiff = try CLI.temporaryFile([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0], name: "a.tiff")
        let result = try CLI.run(["info", tiff.path])
        #expect(result.status == 0)
        #expect(result.standardOutput == "\(tiff.path): tiff\n")
        let decode = try CLI.run(["decode", tiff.path, "-o", tiff.path + ".pam"])
        #expect(decode.status == 1)
        #expect(decode.standardError == "error: \(tiff.path): unsupported format tiff\n")
    }
}
