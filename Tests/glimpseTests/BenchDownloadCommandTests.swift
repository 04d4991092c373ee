import Foundation
import Testing

@Suite("glimpse bench-download")
struct BenchDownloadCommandTests {
    @Test func printsTheThreeNamedLines() throws {
        let result = try CLI.run(["bench-download", "--count", "24", "--size", "2000", "--rounds", "1",
                                  "--callers", "30", "--urls", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(lines.map { $0.count } == [4, 4, 4])
        #expect(lines.map { $0.first } == ["download", "download", "download"])
        #expect(lines.map { $0[1] } == ["glimpse", "urlsession", "coalesced-requests"])
        #expect(lines.prefix(2).allSatisfy { Double($0[2]).map { $0 > 0 } == true && $0[3] == "MB/s" })
        #expect(lines.last?[2] == "3", "one request per distinct URL")
    }

    @Test func faultyLinkEveryImageArrivesWholeWithAndWithoutResumption() throws {
        let result = try CLI.run(["bench-download", "--reset-fraction", "0.5", "--count", "8", "--size", "40000",
                                  "--rounds", "1", "--link-rate", "0"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(lines.map { $0[1] } == ["faulty-goodput", "faulty-goodput-no-resume", "faulty-complete"])
        #expect(lines.prefix(2).allSatisfy { Double($0[2]).map { $0 > 0 } == true && $0[3] == "MB/s" })
        #expect(lines.last == ["download", "faulty-complete", "8", "images"])
    }

    @Test func rejectsAResetFractionOfOne() throws {
        #expect(try CLI.run(["bench-download", "--reset-fraction", "1"]).status == 2)
    }

    @Test func rejectsZeroCounts() throws {
        let result = try CLI.run(["bench-download", "--count", "0"])
        #expect(result.status == 2)
    }
}
