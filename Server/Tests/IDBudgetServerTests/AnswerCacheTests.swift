import Foundation
import HTTPTypes
import HummingbirdTesting
import IDBudget
import Testing

@testable import IDBudgetServer

/// A question asked again is answered from the cache, byte for byte what the library answers; the
/// cache keeps light answers only, bounded in entries and in answer size.
@Suite struct AnswerCacheTests {
    static let seed = "alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11"

    @Test func askedAgainInAnyOrderTheSameBytes() async throws {
        let expected = try cliText(
            Planner.length(
                alphabet: .base62, volume: Workload(rate: Rate(parsing: "1e6/s"), lifetime: Lifetime(parsing: "10y")).volume(),
                budget: Budget(parsing: "1e-11"), from: Planner.today))
        try await withServer { client in
            let reordered = "max-probability=1e-11&lifetime=10y&rate=1e6%2Fs&alphabet=base62"
            for query in [Self.seed, Self.seed, reordered, reordered] {
                let r = try await client.get("/api/v1/length?\(query)")
                #expect(r.status == .ok)
                #expect(r.body == expected, "\(query)")
            }
            // The same parameters asked of another command are another question.
            let p = try await client.get("/api/v1/probability?alphabet=base62&length=22&rate=1e6/s&lifetime=10y")
            #expect(p.status == .ok && p.body.contains("\"command\" : \"probability\""))
            // A refusal is never kept: asked twice, refused twice.
            for _ in 0..<2 {
                #expect(
                    try await client.get("/api/v1/length?alphabet=base62&rate=1e6/x&lifetime=10y&max-probability=1e-11").status
                        == .badRequest)
            }
        }
    }

    /// Canonically equivalent spellings are different questions: `é` (U+00E9) and `e` + U+0301 have
    /// different bytes, so different answers (found by an outside tester: the second was served the
    /// first's). A leading byte-order mark is kept, as the CLI keeps it.
    @Test func equivalentSpellingsAreNotOneQuestion() async throws {
        try await withServer { client in
            let composed = try await client.get("/api/v1/length?symbols=%C3%A9c&count=102&max-probability=1e-3")
            let decomposed = try await client.get("/api/v1/length?symbols=e%CC%81c&count=102&max-probability=1e-3")
            #expect(composed.status == .ok && decomposed.status == .ok)
            #expect(composed.body != decomposed.body)
            let a = try await client.get("/api/v1/inspect?id=caf%C3%A9")
            let b = try await client.get("/api/v1/inspect?id=cafe%CC%81")
            // Compared as bytes (String's == would call them equal).
            #expect(!a.body.utf8.elementsEqual(b.body.utf8), "\(b.body)")
            let bom = try await client.get("/api/v1/probability?symbols=%EF%BB%BFa&length=5&count=100")
            #expect(bom.status == .ok, "\(bom.body)")
        }
    }

    /// With the cache off the answers are the same (the cache changes speed, never an answer).
    @Test func offGivesTheSameAnswers() async throws {
        let queries = ["/api/v1/length?\(Self.seed)", "/api/v1/capacity?scheme=uuid4&max-probability=1e-9&rate=1e3/s"]
        let on = try await withServer { client in
            var bodies: [String] = []
            for q in queries + queries { bodies.append(try await client.get(q).body) }
            return bodies
        }
        let off = try await withServer(settings: ServerSettings(answerCache: 0)) { client in
            var bodies: [String] = []
            for q in queries + queries { bodies.append(try await client.get(q).body) }
            return bodies
        }
        #expect(on == off)
    }

    @Test func heavyQuestionsAreNotKept() throws {
        let cache = AnswerCache(capacity: 8)
        let heavy = try Query.arguments("bits=2%5E21&count=1e600000", allowed: ["bits", "count"])
        #expect(cache.key(.probability, heavy) == nil)
        let light = try Query.arguments("bits=64&count=1e6", allowed: ["bits", "count"])
        #expect(cache.key(.probability, light) != nil)
        #expect(AnswerCache(capacity: 0).key(.probability, light) == nil)
    }

    /// First in, first out: the cache never holds more than its capacity, nor an answer past the size limit.
    @Test func boundedInEntriesAndSize() throws {
        let cache = AnswerCache(capacity: 2)
        var keys: [AnswerCache.Key] = []
        for bits in 60..<64 {
            let key = try #require(cache.key(.probability, try Query.arguments("bits=\(bits)&count=9", allowed: ["bits", "count"])))
            cache.keep("answer \(bits)", for: key)
            keys.append(key)
        }
        #expect(cache.answer(keys[0]) == nil && cache.answer(keys[1]) == nil)
        #expect(cache.answer(keys[2]) == "answer 62" && cache.answer(keys[3]) == "answer 63")
        let big = try #require(cache.key(.probability, try Query.arguments("bits=70&count=9", allowed: ["bits", "count"])))
        cache.keep(String(repeating: "x", count: AnswerCache.maxAnswerBytes + 1), for: big)
        #expect(cache.answer(big) == nil)
        // Another day's key finds nothing.
        let yesterday = AnswerCache.Key(bytes: keys[3].bytes, day: keys[3].day - 1)
        #expect(cache.answer(yesterday) == nil)
    }
}
