import Foundation

/// The independent reference values made by Tests/Oracles/reference_cases.py from the one reference,
/// Tests/Oracles/reference.py (exact fractions, or mpmath with a carried error bound).
struct Reference: Decodable {
    struct Probability: Decodable {
        let label: String
        let space: String
        let count: String
        let probability: String
        let complement: String
        let expectedCollisions: String
    }

    struct Capacity: Decodable {
        let label: String
        let space: String
        let budget: String
        let capacity: String
    }

    struct Length: Decodable {
        let label: String
        let alphabetSize: Int
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
        let alphabetSize: Int
        let count: String
        let groups: String
        let budget: String
        let length: Int
    }

    let scoped: [Scoped]
    let scopedLength: [ScopedLength]
    let digits: Int
    let duplicates: [Duplicates]
    let probability: [Probability]
    let capacity: [Capacity]
    let length: [Length]
    let expectedDraws: [Draws]

    static let shared: Reference = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Reference/reference.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try! decoder.decode(Reference.self, from: Data(contentsOf: url))
    }()
}
