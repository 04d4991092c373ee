import Foundation
import TestSupport
import Testing

/// Every `swift` code block of the README and the DocC articles compiles, as written.
///
/// - README blocks are compiled by `swiftc -typecheck` against the modules this test run was
///   built with: each block becomes the body of a function (or stays at file level when it
///   declares types), with the imports it names, or those of the block before it, and a few
///   names the prose takes as given (`url`, `bytes`, `image`…) declared beside it.
/// - DocC article blocks end in `return` and need their surroundings, so each must appear word
///   for word in one of the `Documentation/GettingStartedTests.swift` files, which compile and
///   run it against a loopback server and temporary folders.
@Suite("Documentation: every code block compiles")
struct DocumentationCodeBlockTests {
    /// The folder holding the `.swiftmodule` files of the build this test runs in.
    static let modules: URL? = {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Glimpse.swiftmodule").path) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    static let swiftc: String? = {
        let toolchain = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").map(String.init)
        return (toolchain + ["/opt/swift/usr/bin", "/usr/bin"])
            .map { $0 + "/swiftc" }
            .first(where: FileManager.default.isExecutableFile)
    }()

    /// Names the README's prose takes as given.
    static let readmePrelude = """
        import Foundation
        import Glimpse
        import GlimpseCache
        import GlimpseCodec
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif

        let url = URL(string: "http://127.0.0.1:8080/photo.jpg")!
        let bytes: [UInt8] = []
        let chunks: [[UInt8]] = []
        let image = Image(pixels: PixelBuffer(width: 1, height: 1), format: .png)
        let etag: String? = nil
        func show(_ image: Image) {}

        """

    struct Block {
        var file: String
        var line: Int
        var code: String
    }

    /// The `swift` fenced blocks of a Markdown file, with the line each starts on.
    static func blocks(in url: URL) throws -> [Block] {
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var current: (line: Int, code: [String])?
        for (number, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = (number + 2, [])
            } else if let open = current {
                if trimmed == "```" {
                    blocks.append(Block(file: url.lastPathComponent, line: open.line, code: open.code.joined(separator: "\n")))
                    current = nil
                } else {
                    current?.code.append(line)
                }
            }
        }
        return blocks
    }

    /// A block as Swift source: its imports on top, its statements inside an async throwing
    /// function (declarations of types and functions stay at file level).
    static func source(of block: Block, index: Int, inheritedImports: [String]) -> (source: String, imports: [String]) {
        let lines = block.code.components(separatedBy: "\n")
        let imports = lines.filter { $0.hasPrefix("import ") }
        let body = lines.filter { !$0.hasPrefix("import ") }
        let usedImports = imports.isEmpty ? inheritedImports : imports
        let declares = body.contains { line in
            line.range(of: #"^(public |final |private |@\w+ )*(struct|class|enum|actor|extension|protocol|func) "#,
                       options: .regularExpression) != nil
        }
        var text = usedImports.joined(separator: "\n") + "\n\n"
        text += "// \(block.file), line \(block.line)\n"
        if declares {
            text += body.joined(separator: "\n") + "\n"
        } else {
            text += "func block\(index)() async throws {\n" + body.joined(separator: "\n") + "\n}\n"
        }
        return (text, usedImports)
    }

    @Test("README blocks compile with swiftc", .enabled(if: modules != nil && swiftc != nil))
    func readmeBlocksCompile() async throws {
        let modules = try #require(Self.modules), swiftc = try #require(Self.swiftc)
        let blocks = try Self.blocks(in: Fixtures.repositoryRoot.appendingPathComponent("README.md"))
        #expect(blocks.count >= 4)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files = [folder.appendingPathComponent("Prelude.swift")]
        try Self.readmePrelude.write(to: files[0], atomically: true, encoding: .utf8)
        var imports: [String] = []
        for (index, block) in blocks.enumerated() {
            let (source, used) = Self.source(of: block, index: index, inheritedImports: imports)
            imports = used
            let file = folder.appendingPathComponent("README-line-\(block.line).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        // C modules the Swift modules were built against: zlib's, and any a dependency generated.
        var moduleMaps = [Fixtures.repositoryRoot.appendingPathComponent("Sources/CZlib/module.modulemap").path]
        let buildFolder = modules.deletingLastPathComponent()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: buildFolder.path)) ?? [] where name.hasSuffix(".build") {
            let map = buildFolder.appendingPathComponent(name).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { moduleMaps.append(map.path) }
        }
        // And those a dependency ships in its own include folder (swift-atomics' shims, which
        // swift-nio, and so the `GlimpseRedis` block, need): .build/checkouts/*/Sources/*/include.
        let checkouts = buildFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        for package in (try? FileManager.default.contentsOfDirectory(atPath: checkouts.path)) ?? [] {
            let sources = checkouts.appendingPathComponent(package).appendingPathComponent("Sources")
            for target in (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [] {
                let map = sources.appendingPathComponent(target).appendingPathComponent("include/module.modulemap")
                if FileManager.default.fileExists(atPath: map.path) { moduleMaps.append(map.path) }
            }
        }
        let arguments = ["-typecheck", "-parse-as-library", "-swift-version", "6", "-I", modules.path]
            + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + files.map(\.path)
        let result = try #require(await ReferenceDecoder.runOffThePool(swiftc, arguments), "swiftc did not start")
        #expect(result.status == 0, "README code blocks do not compile:\n\(result.output)")
    }

    @Test("every DocC article block is compiled and run by a documentation test")
    func articleBlocksAreTested() throws {
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources")
        let tests = Fixtures.repositoryRoot.appendingPathComponent("Tests")
        let testText = try FileManager.default.subpathsOfDirectory(atPath: tests.path)
            .filter { $0.hasSuffix(".swift") && $0.contains("Documentation/") }
            .map { try String(contentsOf: tests.appendingPathComponent($0), encoding: .utf8) }
            .map(Self.normalised)
            .joined(separator: "\n")
        var checked = 0
        for path in try FileManager.default.subpathsOfDirectory(atPath: sources.path)
        where path.hasSuffix(".md") && path.contains(".docc/") {
            for block in try Self.blocks(in: sources.appendingPathComponent(path)) {
                #expect(testText.contains(Self.normalised(block.code)),
                        "\(path), line \(block.line): no documentation test holds this block word for word")
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    /// Each line trimmed, blank lines dropped: indentation differs between an article and the
    /// function body that holds its code.
    static func normalised(_ text: String) -> String {
        text.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}
