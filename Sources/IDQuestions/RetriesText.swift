import Foundation
import IDBudget

/// `retries`' options beyond the space, as text — the CLI's options and the server's query parameters
/// alike — checked as the CLI checks them.
public struct RetriesText: Sendable {
    public var volume: VolumeText
    public var maxAttempts, maxProbability: String?

    public init(volume: VolumeText, maxAttempts: String? = nil, maxProbability: String? = nil) {
        (self.volume, self.maxAttempts, self.maxProbability) = (volume, maxAttempts, maxProbability)
    }

    /// The question for `space` (named by `scheme`, if it was), or the refusal the CLI gives.
    public func question(space: Space, scheme: Scheme?) throws(ArgumentError) -> RetriesQuestion {
        if let scheme, scheme.node == nil, let bucket = scheme.bucket {
            throw ArgumentError(
                "--scheme",
                "\(scheme.name) ids collide only within one \(bucket.rawValue); retries model one flat space: give \(arg: "bits", "\(scheme.randomBits)") and the ids per \(bucket.rawValue) as \(arg: "count")"
            )
        }
        if volume.existing != nil {
            throw ArgumentError(
                "--existing",
                "retries count every stored id in \(arg: "count"); give the total (stored and new) as \(arg: "count"), without \(arg: "existing")"
            )
        }
        if volume.scopes != nil || volume.countPerScope != nil {
            throw ArgumentError(
                volume.scopes != nil ? "--scopes" : "--count-per-scope",
                "retries model one store; give its \(arg: "count") (or \(arg: "rate") with \(arg: "lifetime")), without scopes")
        }
        let resolved = try volume.volume(scheme: scheme)
        let k = try attempts()
        if maxProbability != nil && k == nil {
            throw ArgumentError(
                "--max-probability",
                "a budget for running out of attempts needs \(arg: "max-attempts"); add e.g. \(arg: "max-attempts", "3")")
        }
        let budget = try maxProbability.map { (t: String) throws(ArgumentError) -> Budget in try ArgumentText.budget(t) }
        if let k {
            do { try Retries.checkAttempts(k, space: space.size) } catch { throw ArgumentError("--max-attempts", Self.message(error)) }
        }
        return RetriesQuestion(space: space, volume: resolved, maxAttempts: k, budget: budget)
    }

    /// `--max-attempts` as a whole number from 1 to the limit.
    func attempts() throws(ArgumentError) -> Int? {
        guard let text = maxAttempts else { return nil }
        guard let k = ArgumentText.wholeNumber(text), k >= 1, k <= Retries.maxAttemptsLimit else {
            throw ArgumentError(
                "--max-attempts",
                "'\(text.prefix(40))' is not a whole number from 1 to \(Retries.maxAttemptsLimit); e.g. \(arg: "max-attempts", "3")")
        }
        return k
    }

    static func message(_ error: any Error) -> String { (error as? InputError)?.message ?? "\(error)" }
}

/// A `retries` question, read and checked (``RetriesText``); ``answer()`` is the computation.
public struct RetriesQuestion: Sendable {
    public let space: Space
    public let volume: Volume
    public let maxAttempts: Int?
    public let budget: Budget?

    /// The CLI's answer; a refusal found only in the computing names `--max-probability` when a
    /// budget was given, else `--count`, as the CLI does.
    public func answer() throws(ArgumentError) -> RetriesAnswer {
        do { return try Planner.retries(space: space, volume: volume, maxAttempts: maxAttempts, budget: budget) } catch {
            throw ArgumentError(budget != nil ? "--max-probability" : "--count", RetriesText.message(error))
        }
    }
}
