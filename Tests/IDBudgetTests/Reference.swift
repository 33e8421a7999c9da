import Foundation

/// The independent reference values made by Tests/Oracles/reference.py (mpmath and exact fractions).
struct Reference: Decodable {
    struct Probability: Decodable {
        let label: String
        let space: String
        let count: String
        let probability: String
        let complement: String
        let expected_collisions: String
    }

    struct Capacity: Decodable {
        let label: String
        let space: String
        let budget: String
        let capacity: String
    }

    struct Length: Decodable {
        let label: String
        let alphabet_size: Int
        let count: String
        let budget: String
        let length: Int
    }

    struct Draws: Decodable {
        let space: String
        let value: String
    }

    struct Duplicates: Decodable {
        let space: String
        let count: String
        let mean: String
        let variance: String
    }

    struct Scoped: Decodable {
        let label: String
        let space: String
        let count: String
        let groups: String
        let probability: String
        let complement: String
    }

    struct ScopedLength: Decodable {
        let label: String
        let alphabet_size: Int
        let count: String
        let groups: String
        let budget: String
        let length: Int
    }

    let scoped: [Scoped]
    let scoped_length: [ScopedLength]
    let digits: Int
    let duplicates: [Duplicates]
    let probability: [Probability]
    let capacity: [Capacity]
    let length: [Length]
    let expected_draws: [Draws]

    static let shared: Reference = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Reference/reference.json")
        return try! JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }()
}
