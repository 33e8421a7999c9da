// swift-tools-version:6.1
import Foundation
import PackageDescription

// idbudget-serve is a package of its own so that neither the CLI nor a consumer of the libraries
// resolves Hummingbird and SwiftNIO. It depends on idbudget by path; a path dependency's identity is
// its folder's name, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let idbudget = root.lastPathComponent.lowercased()

let package = Package(
    name: "idbudget-server",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "idbudget-serve", targets: ["IDBudgetServe"]),
        .library(name: "IDBudgetServer", targets: ["IDBudgetServer"]),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Requests to answers: the application, its routes and middleware. Tests drive it in memory.
        .target(
            name: "IDBudgetServer",
            dependencies: [
                .product(name: "IDBudget", package: idbudget),
                .product(name: "IDAudit", package: idbudget),
                .product(name: "IDQuestions", package: idbudget),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The page's style sheet, script and icon, compiled into the binary (no bundle to find at run
            // time): one column on a phone, nothing wider than the screen but the boxes that scroll on
            // their own; the script swaps in the answer as you type (the form works without it).
            resources: [
                .embedInCode("Page/Resources/style.css"), .embedInCode("Page/Resources/app.js"),
                .embedInCode("Page/Resources/favicon.svg"),
            ]
        ),
        // The executable: options (ArgumentParser, or the environment), logging setup, run.
        .executableTarget(
            name: "IDBudgetServe",
            dependencies: [
                "IDBudgetServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "IDBudgetServerTests",
            dependencies: [
                "IDBudgetServer",
                .product(name: "IDBudget", package: idbudget),
                .product(name: "IDAudit", package: idbudget),
                .product(name: "IDQuestions", package: idbudget),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
