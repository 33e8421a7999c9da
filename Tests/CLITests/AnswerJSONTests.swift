import Foundation
import IDAudit
import IDQuestions
import IDTokens
import Testing

@testable import IDBudget

/// An answer's JSON is Foundation's `JSONEncoder` output (snake_case keys, sorted, pretty-printed,
/// slashes unescaped), byte for byte, on every kind of answer the CLI and the server print: idbudget
/// writes it with its own encoder for speed, and Foundation is the reference here.
@Suite struct AnswerJSONTests {
    static func foundation(_ answer: some Encodable, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(answer), as: UTF8.self)
    }

    static func same(_ answer: some Answer, _ label: String, ours written: Bool = true) throws {
        // Written by idbudget's encoder, not handed to Foundation (or the comparison proves nothing).
        #expect((AnswerEncoder.text(answer, pretty: true) != nil) == written, "\(label)")
        let ours = try answer.jsonText()
        let theirs = try foundation(answer)
        #expect(ours == theirs, "\(label)")
        if ours != theirs {
            for (x, y) in zip(ours.split(separator: "\n"), theirs.split(separator: "\n")) where x != y {
                Issue.record("\(label)\nours:       \(x)\nfoundation: \(y)")
                break
            }
        }
        #expect(try answer.jsonLine() == foundation(answer, pretty: false), "\(label), one line")
    }

    static let questions: [(Question.Command, [String: String])] = {
        var asked: [(Question.Command, [String: String])] = [
            (.length, ["alphabet": "base62", "rate": "1e6/s", "lifetime": "10y", "max-probability": "1e-11", "from": "2026-01-01"]),
            (.length, ["alphabet": "base62", "rate": "1e6/s", "lifetime": "10y", "max-probability": "1e-11"]),
            (.length, ["symbols": "ab\"\\/é", "count": "1e6", "max-probability": "1e-9"]),
            (.length, ["alphabet-size": "36", "count": "1e30", "max-probability": "1e-300", "max-bytes": "8"]),
            (.length, ["alphabet": "hex", "rate": "5e3/s", "lifetime": "3y", "growth": "2x/y", "max-probability": "1e-6"]),
            (.probability, ["alphabet": "base62", "length": "22", "count": "1e12"]),
            (.probability, ["bits": "122", "count": "1e18", "scopes": "1000"]),
            (.probability, ["bits": "8", "count": "100"]),
            (.capacity, ["bits": "64", "max-probability": "1e-9", "rate": "1e3/s"]),
            (.capacity, ["alphabet": "base58", "length": "10", "max-probability": "0.5"]),
            (.plan, ["rate": "1e6/s", "lifetime": "10y", "max-probability": "1e-11"]),
            (.retries, ["bits": "32", "count": "1e6", "max-attempts": "3"]),
            (.retries, ["bits": "20", "count": "2e6"]),
            (.schemes, [:]),
            (.inspect, ["id": "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"]),
            (.inspect, ["id": "user_01h455vb4pex5vsknk084sn02q"]),
            (.inspect, ["id": "not an id \u{1}\t\""]),
        ]
        for scheme in Scheme.all {
            asked.append((.probability, ["scheme": scheme.name, "rate": "1e3/s", "lifetime": "1y", "nodes": "50"]))
            asked.append((.length, ["scheme": scheme.name, "rate": "1e3/s", "lifetime": "1y", "max-probability": "1e-9", "nodes": "50"]))
        }
        return asked
    }()

    @Test func everyKindOfAnswerIsFoundationsJSON() throws {
        var answered = 0
        for (command, named) in Self.questions {
            guard let answer = try? Question(command, Arguments(named)).answer() else { continue }
            answered += 1
            try Self.same(answer, "\(command) \(named)")
        }
        #expect(answered >= Self.questions.count * 3 / 4, "only \(answered) of \(Self.questions.count) answered")
    }

    @Test func auditReportsAreFoundationsJSON() throws {
        func auditor() throws -> Auditor { try Auditor(now: Date(timeIntervalSince1970: 1_800_000_000)) }
        let uuid4 = IDGenerator(.uuid4)
        let tokens: [String] = (0..<2000).map { _ in uuid4.next() }
        try Self.same(try auditor().audit(tokens), "tokens")
        try Self.same(try auditor().audit(tokens + tokens.prefix(30)), "tokens with copies")
        try Self.same(try auditor().audit(["id"] + (0..<500).map { String(format: "%08d", $0) }), "a header and counters")
        try Self.same(try auditor().audit([String]()), "nothing")
    }

    /// What no answer holds today but one might: keys in every case shape, strings needing escapes,
    /// numbers at their edges, empty containers, explicit nulls, a dictionary (its keys kept as they are).
    struct Edges: Answer {
        var myURLProperty = "a/b"
        var aB = 1
        var alreadySnake = true
        var httpServer: Int8 = -128
        var x1Y: UInt64 = .max
        var a: Int64 = .min
        var text = "quote \" backslash \\ controls \u{0}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F} é 😀 </script>"
        var doubles: [Double] = [
            0, -0.0, 0.1, 1e-11, 3.15e14, 1e16, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123_456_789_012_345_680, 2.5,
        ]
        var floats: [Float] = [0.1, 1e30, 3]
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var dictionary: [String: [Int]] = ["CamelKey": [1], "b": []]
        var nested: [[String?]] = [[nil, "x"], []]
        var missing: Int? = nil
        var present: Double? = 1.5

        init() {}
        init(from decoder: any Decoder) throws { self.init() }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(myURLProperty, forKey: .myURLProperty)
            try c.encode(aB, forKey: .aB)
            try c.encode(aB + 1, forKey: .aB)  // a key encoded twice: its last value
            try c.encode(alreadySnake, forKey: .alreadySnake)
            try c.encode(httpServer, forKey: .httpServer)
            try c.encode(x1Y, forKey: .x1Y)
            try c.encode(a, forKey: .a)
            try c.encode(text, forKey: .text)
            try c.encode(doubles, forKey: .doubles)
            try c.encode(floats, forKey: .floats)
            try c.encode(empty, forKey: .empty)
            try c.encode(emptyObject, forKey: .emptyObject)
            try c.encode(dictionary, forKey: .dictionary)
            try c.encode(nested, forKey: .nested)
            try c.encodeIfPresent(missing, forKey: .missing)
            try c.encodeNil(forKey: .explicitNull)
            try c.encode(present, forKey: .present)
            var inner = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .innerObject)
            try inner.encode(1, forKey: .a)
            var list = c.nestedUnkeyedContainer(forKey: .innerList)
            try list.encode("x")
            try list.encodeNil()
        }

        enum CodingKeys: String, CodingKey {
            case alreadySnake = "already_snake"
            case httpServer = "HTTPServer"
            case myURLProperty, aB, x1Y, a, text, doubles, floats, empty, emptyObject, dictionary, nested,
                missing, present, explicitNull, innerObject, innerList
        }
    }

    @Test func edgesAreFoundationsJSON() throws {
        try Self.same(Edges(), "edges")
    }

    /// Values only Foundation writes its way (a date, a non-finite double) are written by Foundation.
    struct Dated: Answer {
        var when = Date(timeIntervalSince1970: 1_000_000_000.5)
        var url = URL(string: "https://example.com/a")
    }

    @Test func foundationWritesWhatOnlyItKnows() throws {
        try Self.same(Dated(), "a date and a URL", ours: false)
        struct Infinite: Answer { var x = Double.infinity }
        #expect(throws: (any Error).self) { try Infinite().jsonText() }
    }
}
