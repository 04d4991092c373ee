import Foundation
import FuzzTargets

// Standalone fuzzing without libFuzzer: replays Fuzz/Regressions and the seed
// corpus, then mutates seeds for a while. See Fuzz/README.md.

struct Arguments {
    var targets: [FuzzTarget] = []
    var seconds: Double = 10
    var seed: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000)
    var timeout: UInt32 = 10
    var crashDirectory = FileManager.default.currentDirectoryPath

    static let usage = "usage: fuzz-standalone TARGET|all [--seconds N] [--seed N] [--timeout SECONDS] [--crashes DIR]\ntargets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " "))"

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        guard let name = rest.popFirst() else { throw UsageError() }
        if name == "all" {
            targets = FuzzTarget.allCases
        } else if let target = FuzzTarget(rawValue: name) {
            targets = [target]
        } else {
            throw UsageError()
        }
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError() }
            switch flag {
            case "--seconds": seconds = try Double(value).orThrow()
            case "--seed": seed = try UInt64(value).orThrow()
            case "--timeout": timeout = try UInt32(value).orThrow()
            case "--crashes": crashDirectory = value
            default: throw UsageError()
            }
        }
    }
}

struct UsageError: Error {}

extension Optional {
    func orThrow() throws -> Wrapped {
        guard let self else { throw UsageError() }
        return self
    }
}

let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data((Arguments.usage + "\n").utf8))
    exit(2)
}

let clock = ContinuousClock()
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

var totalExecutions = 0
for target in arguments.targets {
    let crashPath = (arguments.crashDirectory as NSString).appendingPathComponent("crash-\(target.rawValue)-\(getpid()).bin")
    CrashReporter.install(crashPath: crashPath, timeoutSeconds: arguments.timeout)
    let corpus = SeedCorpus(target: target, repository: repository,
                            extraDirectories: target.seedDirectories.map { URL(fileURLWithPath: $0) })

    func execute(_ bytes: [UInt8], origin: String) {
        CrashReporter.willRun(bytes)
        let violation = FuzzChecks.run(target, bytes)
        CrashReporter.didRun()
        if let violation {
            CrashReporter.saveCurrentInput()
            print("==fuzz== VIOLATION in \(target) (\(origin)): \(violation); input saved to \(crashPath)")
            exit(1)
        }
    }

    let replayStart = clock.now
    for (name, bytes) in corpus.regressions + corpus.seeds { execute(bytes, origin: name) }
    let replayTime = seconds(clock.now - replayStart)

    var mutator = Mutator(random: SplitMix64(seed: arguments.seed), pool: corpus.seeds.map(\.bytes))
    let budget = arguments.seconds / Double(arguments.targets.count)
    let mutateStart = clock.now
    var executions = 0
    if !corpus.seeds.isEmpty {
        while seconds(clock.now - mutateStart) < budget {
            let seed = corpus.seeds[Int(mutator.random.next() % UInt64(corpus.seeds.count))].bytes
            execute(mutator.mutate(seed), origin: "mutation \(executions) of seed run \(arguments.seed)")
            executions += 1
        }
    }
    let elapsed = max(seconds(clock.now - mutateStart), 1e-9)
    totalExecutions += executions
    print(String(format: "fuzz %@: replayed %d regressions and %d seeds in %.1f s; %d mutated executions in %.1f s (%.0f/s), seed %llu, no findings",
                 target.rawValue, corpus.regressions.count, corpus.seeds.count, replayTime, executions, elapsed,
                 Double(executions) / elapsed, arguments.seed))
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print("fuzz: \(totalExecutions) mutated executions in all; peak resident memory \(usage.ru_maxrss / 1024) MiB")
