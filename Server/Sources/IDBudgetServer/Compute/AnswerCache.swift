import Foundation
import IDBudget
import IDQuestions
import Synchronization

/// The JSON of light questions answered lately, by question and day: a question asked again (the same
/// parameters, in any order, the same UTC day) is answered from here without computing.
///
/// An answer depends on its parameters and on today's date alone (the default `--from` of a length
/// schedule or a capacity's dates), so an entry is keyed by both and a new day starts afresh; an
/// answer computed across midnight is not kept. Only light questions (`Arguments.isHeavy` false) are
/// kept, and only answers up to ``maxAnswerBytes``: the heavy lane still bounds every heavy question,
/// and memory stays within `capacity × maxAnswerBytes` (8 MiB by default) whatever clients ask.
/// Eviction is first in, first out: a flood of distinct questions costs the cache its hits, never memory.
final class AnswerCache: Sendable {
    /// Entries kept; 0 turns the cache off.
    let capacity: Int
    /// Longer answers are not kept.
    static let maxAnswerBytes = 16 << 10

    private struct State {
        // Keyed by the bytes: Swift's String equality is canonical equivalence, and `é` and `e` + U+0301
        // are different questions (their byte counts differ).
        var answers: [[UInt8]: String] = [:]
        var order: [[UInt8]] = []
        var next = 0
        var day = 0
    }
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The key of `query` asked of `command` today (UTC), or nil when such a question is not kept.
    func key(_ command: Question.Command, _ query: Arguments) -> Key? {
        guard capacity > 0, !query.isHeavy else { return nil }
        let text = query.sortedPairs.map { "\($0.name)=\($0.value)" }.joined(separator: "\u{0}")
        return Key(bytes: Array((command.rawValue + "\u{0}" + text).utf8), day: Self.day())
    }

    struct Key {
        let bytes: [UInt8]
        let day: Int
    }

    func answer(_ key: Key) -> String? {
        state.withLock { $0.day == key.day ? $0.answers[key.bytes] : nil }
    }

    func keep(_ answer: String, for key: Key) {
        // Computed across midnight: its dates may be yesterday's.
        guard answer.utf8.count <= Self.maxAnswerBytes, Self.day() == key.day else { return }
        state.withLock { s in
            if s.day != key.day {
                s = State()
                s.day = key.day
            }
            guard s.answers[key.bytes] == nil else { return }
            if s.order.count < capacity {
                s.order.append(key.bytes)
            } else {
                s.answers[s.order[s.next]] = nil
                s.order[s.next] = key.bytes
                s.next = (s.next + 1) % capacity
            }
            s.answers[key.bytes] = answer
        }
    }

    /// Days since 1970 (UTC): the day a default `--from` reads (`Planner.today`).
    static func day() -> Int { Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)) }
}
