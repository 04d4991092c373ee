// swift-tools-version: 6.2
import PackageDescription

// An example thumbnail server on Hummingbird 2: not a product of Glimpse, a package of its own
// that depends on Glimpse by path, as an application would depend on a release.
let package = Package(
    name: "ThumbnailServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Glimpse", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .executableTarget(
            name: "ThumbnailServer",
            dependencies: [
                .product(name: "Glimpse", package: "Glimpse"),
                .product(name: "GlimpseAsyncHTTPClient", package: "Glimpse"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
