import ArgumentParser
import Foundation
import Glimpse

/// `glimpse`: the command-line face of the library.
///
/// Exit status: 0 success; 1 an input could not be read or decoded (one line
/// `error: <reason>` on standard error); 2 usage error. Never a crash or a
/// signal, whatever the input.
@main
struct GlimpseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glimpse",
        abstract: "Inspect, decode and benchmark images with Glimpse's pure-Swift decoders.",
        version: GlimpseLibrary.version,
        subcommands: [
            InfoCommand.self,
            DecodeCommand.self,
            EncodeCommand.self,
            BenchEncodeCommand.self,
            ThumbnailCommand.self,
            BenchCommand.self,
            BenchCacheCommand.self,
            BenchDownloadCommand.self,
            BenchTransformCommand.self,
            FetchCommand.self,
            CacheCommand.self,
            DemoCommand.self,
            BenchPipelineCommand.self,
            BenchSharedCacheCommand.self,
            BenchColorCommand.self,
        ]
    )

    static func main() async {
        // A closed pipe on standard output must end in an exit status, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            Terminal.error(failure.message)
            Foundation.exit(1)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation.exit(0)
            }
            if !message.isEmpty { Terminal.standardError(message) }
            Foundation.exit(2)
        }
    }
}
