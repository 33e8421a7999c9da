// swift-tools-version:6.1
import Foundation
import PackageDescription

// The benchmarks are a package of their own so that neither the CLI nor a consumer of the libraries
// resolves package-benchmark. It depends on idbudget by path; a path dependency's identity is its
// folder's name, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let idbudget = root.lastPathComponent.lowercased()

let package = Package(
    name: "idbudget-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "collision-experiments", targets: ["CollisionExperiments"]),
        .executable(name: "format-ratios", targets: ["FormatRatios"]),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // `swift package benchmark --target TokenThroughput`: the generator against what a Swift user
        // would write instead.
        .executableTarget(
            name: "TokenThroughput",
            dependencies: [
                .product(name: "IDTokens", package: idbudget),
                .product(name: "Benchmark", package: "benchmark"),
                "CounterFloor",
            ],
            path: "TokenThroughput",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The cycle counter a time-ordered `next()` reads per call, for the report's floor row.
        .target(name: "CounterFloor", path: "CounterFloor"),
        // `swift package benchmark --target MathSpeed`: the math core's speed targets.
        .executableTarget(
            name: "MathSpeed",
            dependencies: [
                .product(name: "IDBudget", package: idbudget),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "MathSpeed",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Every format's bulk fill against base62×22, timed pair by pair (the report's 60% targets).
        .executableTarget(
            name: "FormatRatios",
            dependencies: [.product(name: "IDTokens", package: idbudget)],
            path: "FormatRatios"
        ),
        // Empirical collision counts against the exact expectation, written as JSON and CSV.
        .executableTarget(
            name: "CollisionExperiments",
            dependencies: [
                .product(name: "IDBudget", package: idbudget),
                .product(name: "IDTokens", package: idbudget),
            ],
            path: "CollisionExperiments"
        ),
    ]
)
