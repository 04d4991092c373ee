// swift-tools-version: 6.0
// The fuzz harness, a package of its own so that sanitizer flags and the
// libFuzzer entry point stay out of the main build. Build and run it with
// `Fuzz/run.sh` (libFuzzer) or `Fuzz/standalone.sh` (no libFuzzer needed).
import PackageDescription

let package = Package(
    name: "GlimpseFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Glimpse", path: ".."),
    ],
    targets: [
        // FuzzChecks.swift is a symlink to Tests/TestSupport/FuzzChecks.swift, which
        // the unit test replaying Fuzz/Regressions uses too.
        .target(name: "FuzzTargets", dependencies: [.product(name: "GlimpseCodec", package: "Glimpse")]),
        // libpng and giflib as references for the differential targets (png-diff, gif-diff):
        // linked here only, never into Glimpse. Needs libpng-dev and libgif-dev.
        .target(name: "CReferenceDecoders", linkerSettings: [.linkedLibrary("png"), .linkedLibrary("gif")]),
        .target(name: "DiffTargets", dependencies: ["FuzzTargets", "CReferenceDecoders",
                                                    .product(name: "GlimpseCodec", package: "Glimpse")]),
        // libjpeg-turbo as the reference of the `jpeg-diff` target; only this package links it.
        .target(name: "CJPEGReference", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "JPEGDifferential", dependencies: ["CJPEGReference", .product(name: "GlimpseCodec", package: "Glimpse")]),
        // Built only with `-sanitize=fuzzer,address -parse-as-library` (run.sh): libFuzzer provides `main`.
        .executableTarget(name: "fuzz-libfuzzer", dependencies: ["FuzzTargets", "DiffTargets", "JPEGDifferential"]),
        // Replays inputs through the differential targets png-diff and gif-diff without libFuzzer.
        .executableTarget(name: "fuzz-diff", dependencies: ["DiffTargets"]),
        .executableTarget(name: "fuzz-standalone", dependencies: ["FuzzTargets"]),
    ],
    swiftLanguageModes: [.v6]
)
