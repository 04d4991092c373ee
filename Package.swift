// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Glimpse",
    // Synchronization.Mutex sets the minimums: macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.
    // Linux (glibc, and musl through the static Linux SDK) is where the package is built and
    // tested; the Apple platforms are declared so the code is kept buildable there.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "GlimpseCodec", targets: ["GlimpseCodec"]),
        .library(name: "GlimpseCache", targets: ["GlimpseCache"]),
        .library(name: "Glimpse", targets: ["Glimpse"]),
        .library(name: "GlimpseRedis", targets: ["GlimpseRedis"]),
        .library(name: "GlimpseAsyncHTTPClient", targets: ["GlimpseAsyncHTTPClient"]),
        .executable(name: "glimpse", targets: ["glimpse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Observability API packages only (no back-ends in the library): see the Observability article.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The second loader (GlimpseAsyncHTTPClient) and its ServiceLifecycle `Service`; `Glimpse` itself stays free of both.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // zlib is the only C dependency of the whole library (inflate/deflate for PNG).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Bytes in, pixels out. Standard library and CZlib only: never Foundation.
        .target(
            name: "GlimpseCodec",
            dependencies: ["CZlib"],
            exclude: ["AVIF/README.md", "AVIF/AV1/Tables/generate-tables.py", "Color/README.md", "GIF/README.md", "JPEG/README.md", "PNG/README.md", "WebP/README.md"]
        ),
        .target(name: "GlimpseCache"),
        .target(
            name: "Glimpse",
            dependencies: [
                "GlimpseCodec",
                "GlimpseCache",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The shared data tier on Redis (RESP2/RESP3 over NIO); `Glimpse` itself stays free of NIO.
        .target(
            name: "GlimpseRedis",
            dependencies: [
                "Glimpse",
                "GlimpseCache",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            exclude: ["README.md"]
        ),
        // An `ImageDataLoading` on a caller's AsyncHTTPClient `HTTPClient`, built on the same transfer
        // core as the URLSession downloader, and the pipeline as a ServiceLifecycle `Service`.
        .target(
            name: "GlimpseAsyncHTTPClient",
            dependencies: [
                "Glimpse",
                "GlimpseCache",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A scriptable HTTP/1.1 server on 127.0.0.1 for tests and benchmarks (Foundation + Glibc).
        .target(name: "LoopbackHTTPServer", dependencies: ["GlimpseCache"]),
        .executableTarget(
            name: "glimpse",
            dependencies: [
                "Glimpse",
                "GlimpseCodec",
                "GlimpseCache",
                "GlimpseRedis",
                "GlimpseAsyncHTTPClient",
                "LoopbackHTTPServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Child process for the disk cache's crash and multi-process tests (not a product).
        .executableTarget(name: "glimpse-cache-stress", dependencies: ["GlimpseCache"]),
        // A codec-only program (no Foundation) for the minimal-container smoke test and its size
        // budget (.ci/smoke-container.sh); not a product. Linked as README ("Minimal containers")
        // recommends for a codec-only program: `-static-stdlib` makes the Swift driver pass
        // `-export-dynamic` (the toolchain's static-stdlib-args.lnk), which puts every public
        // GlimpseCodec symbol (2,825 of them) in the dynamic symbol table of an executable that
        // nothing loads symbols from: 253,952 B of .dynsym, .dynstr and .gnu.hash, no code.
        // `--icf=safe` folds identical functions whose address is never taken (specialisations
        // and value witnesses that compiled to the same bytes): 94,208 B. gold and lld take both.
        .executableTarget(
            name: "glimpse-codec-smoke",
            dependencies: ["GlimpseCodec"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic", "-Xlinker", "--icf=safe"], .when(platforms: [.linux]))]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["GlimpseCodec", "GlimpseCache", "LoopbackHTTPServer", .product(name: "Logging", package: "swift-log")],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "GlimpseCodecTests", dependencies: ["GlimpseCodec", "TestSupport"]),
        .testTarget(name: "GlimpseCacheTests", dependencies: ["GlimpseCache", "TestSupport"]),
        .testTarget(
            name: "GlimpseTests",
            dependencies: [
                "Glimpse",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "GlimpseRedisTests",
            dependencies: [
                "GlimpseRedis",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "GlimpseAsyncHTTPClientTests",
            dependencies: [
                "GlimpseAsyncHTTPClient",
                "Glimpse",
                "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(name: "glimpseTests", dependencies: ["glimpse", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// `GLIMPSE_PACKAGE_SUBSET=concurrency` keeps only what the concurrent suites (GlimpseTests,
// GlimpseCacheTests) build from: .ci/run's ThreadSanitizer step builds the package a second
// time, and needs neither the CLI, the Redis tier (swift-nio), the AsyncHTTPClient loader nor the
// codec tests. Users never set it; the package is whole without it.
if Context.environment["GLIMPSE_PACKAGE_SUBSET"] == "concurrency" {
    let kept: Set<String> = [
        "CZlib", "GlimpseCodec", "GlimpseCache", "Glimpse", "LoopbackHTTPServer", "glimpse-cache-stress",
        "TestSupport", "GlimpseCacheTests", "GlimpseTests",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { !["GlimpseCodec", "GlimpseCache", "Glimpse"].contains($0.name) }
    // The observability API packages stay: `Glimpse` and its tests build from them.
    let keptPackages = ["swift-log", "swift-metrics", "swift-distributed-tracing"]
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return true }
        return !keptPackages.contains { location.hasSuffix("/" + $0) }
    }
}
