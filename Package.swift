// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "idbudget",
    // Synchronization's Mutex (the shared generators) needs macOS 15; Linux has no such floor.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "IDBudget", targets: ["IDBudget", "Precise"]),
        .library(name: "IDTokens", targets: ["IDTokens"]),
        .executable(name: "idbudget", targets: ["idbudget"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // GMP and MPFR, seen through a shim that exposes their macros as functions.
        .systemLibrary(
            name: "CMPFR",
            pkgConfig: "mpfr",
            providers: [.apt(["libgmp-dev", "libmpfr-dev"])]
        ),
        // Value types over GMP integers and MPFR floats; the only module that touches C pointers.
        .target(name: "Precise", dependencies: ["CMPFR"]),
        // The generator's system layer (Linux fast path, or portable: see CTokens.h) and ChaCha20/SIMD kernels.
        .target(name: "CTokens"),
        // Alphabets and the token generator; no GMP/MPFR dependency.
        .target(name: "IDTokens", dependencies: ["CTokens"]),
        // Birthday-bound math, exact and certified.
        .target(name: "IDBudget", dependencies: ["Precise", "IDTokens"]),
        .executableTarget(
            name: "idbudget",
            dependencies: [
                "IDBudget", "IDTokens", "Precise",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "IDBudgetTests",
            dependencies: [
                "IDBudget", "IDTokens", "Precise",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Reference"]
        ),
        .testTarget(name: "IDTokensTests", dependencies: ["IDTokens", "IDBudget", "Precise", "CTokens"]),
        .testTarget(name: "CLITests", dependencies: ["idbudget"]),
        // `swift package benchmark`: generator throughput against what a Swift user would write instead.
        .executableTarget(
            name: "TokenThroughput",
            dependencies: ["IDTokens", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/TokenThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // `swift package benchmark --target MathSpeed`: the math core's speed targets.
        .executableTarget(
            name: "MathSpeed",
            dependencies: ["IDBudget", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/MathSpeed",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Empirical collision counts against the exact expectation, written as JSON and CSV.
        .executableTarget(
            name: "collision-experiments",
            dependencies: ["IDTokens", "IDBudget", "Precise"],
            path: "Sources/collision-experiments"
        ),
    ]
)
