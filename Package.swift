// swift-tools-version:6.1
import Foundation
import PackageDescription

// A consumer builds only what its products need: the vocabulary and the generator are pure Swift
// (plus CTokens' C), the math adds GMP/MPFR, and the CLI adds swift-argument-parser (which SwiftPM
// still fetches for a library consumer, but never builds). The benchmarks are a package of their
// own (Benchmarks/) and the DocC plugin joins only when IDBUDGET_DOCS is set (scripts/docs.sh sets
// it), so neither is fetched by anyone else.
let docs = ProcessInfo.processInfo.environment["IDBUDGET_DOCS"] != nil

let package = Package(
    name: "idbudget",
    // Synchronization's Mutex (the shared generators) needs macOS 15; Linux has no such floor.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "IDFormats", targets: ["IDFormats"]),
        .library(name: "IDTokens", targets: ["IDTokens"]),
        .library(name: "IDBudget", targets: ["IDBudget"]),
        .library(name: "IDAudit", targets: ["IDAudit"]),
        .library(name: "IDQuestions", targets: ["IDQuestions"]),
        .executable(name: "idbudget", targets: ["IDBudgetCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ] + (docs ? [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")] : []),
    targets: [
        // The vocabulary: alphabets, id formats and their bit layouts. No dependencies.
        .target(name: "IDFormats"),
        // The generator's system layer (Linux fast path, or portable: see CTokens.h) and ChaCha20/SIMD kernels.
        .target(name: "CTokens"),
        // Minting: keystream, samplers, token and format generators. No GMP/MPFR.
        .target(name: "IDTokens", dependencies: ["IDFormats", "CTokens"]),
        // GMP and MPFR, seen through a shim that exposes their macros as functions.
        .systemLibrary(
            name: "CMPFR",
            pkgConfig: "mpfr",
            providers: [.apt(["libgmp-dev", "libmpfr-dev"])]
        ),
        // Value types over GMP integers and MPFR floats; the only module that touches C pointers.
        .target(name: "Precise", dependencies: ["CMPFR"]),
        // Reasoning about ids: birthday math and planning. Exact and certified.
        .target(name: "IDBudget", dependencies: ["IDFormats", "Precise"]),
        // Auditing ids a system produced: summaries (threads, spill files, the summary JSON) and their
        // judgement (formats, positions, the duplicate test) on IDBudget's math.
        .target(name: "IDAudit", dependencies: ["IDBudget"]),
        // The one door from named arguments (`rate` → `1e6/s`) to questions and answers: the CLI's
        // options, the server's query strings and the page's form all pass through it.
        .target(name: "IDQuestions", dependencies: ["IDBudget", "IDAudit", "IDTokens", "Precise"]),
        // The `idbudget` command: parses, calls the libraries, prints.
        .executableTarget(
            name: "IDBudgetCLI",
            dependencies: [
                "IDBudget", "IDAudit", "IDQuestions", "IDTokens",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "IDFormatsTests", dependencies: ["IDFormats", "TestSupport"], exclude: ["Vectors"]),
        .testTarget(name: "PreciseTests", dependencies: ["Precise", "TestSupport"]),
        .testTarget(name: "IDTokensTests", dependencies: ["IDTokens", "CTokens", "TestSupport"]),
        .testTarget(
            name: "IDBudgetTests",
            dependencies: [
                "IDBudget", "IDAudit", "IDTokens", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Reference"]
        ),
        .testTarget(name: "CLITests", dependencies: ["IDBudgetCLI", "IDBudget", "IDAudit", "IDQuestions", "IDTokens", "TestSupport"]),
    ]
)
