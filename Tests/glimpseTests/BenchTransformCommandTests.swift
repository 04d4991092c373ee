import Foundation
import TestSupport
import Testing

@Suite("glimpse bench-transform")
struct BenchTransformCommandTests {
    @Test func printsOneCSVLinePerCase() throws {
        let input = Fixtures.url("transform/gradient-64x48.pam").path
        let result = try CLI.run(["bench-transform", "--input", input, "--iterations", "1", "--width", "16"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count >= 8)
        for line in lines {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == 4 && fields[0] == "transform" && fields[3] == "ms", "\(line)")
            #expect(fields.count == 4 && Double(fields[2]).map { $0 >= 0 } == true, "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("transform,resize-lanczos3-16,") })
        #expect(lines.contains { $0.hasPrefix("transform,resize-mitchell-16,") })
    }

    @Test func onlyRunsTheNamedCases() throws {
        let input = Fixtures.url("transform/gradient-64x48.pam").path
        let result = try CLI.run(["bench-transform", "--input", input, "--iterations", "1", "--only", "rotate,flip"])
        #expect(result.status == 0, "\(result.standardError)")
        let names = result.standardOutput.split(separator: "\n").map { $0.split(separator: ",")[1] }
        #expect(names == ["rotate-90", "rotate-30", "flip-horizontal"])
    }

    @Test func badArgumentsAndInputsExitNonZero() throws {
        #expect(try CLI.run(["bench-transform", "--iterations", "0"]).status == 2)
        #expect(try CLI.run(["bench-transform", "--width", "-3"]).status == 2)
        let garbage = try CLI.temporaryFile(Array("P7\nWIDTH 9\n".utf8), name: "broken.pam")
        let result = try CLI.run(["bench-transform", "--input", garbage.path, "--iterations", "1"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: "))
    }
}
