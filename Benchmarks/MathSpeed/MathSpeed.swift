import Benchmark
import Foundation
import IDBudget

// The math core's speed targets, one library call per scaled iteration (the figures read as calls/s;
// bench_report turns them into µs per call). IDBUDGET_BENCH_SHORT=1 gives the short CI mode.

let short = ProcessInfo.processInfo.environment["IDBUDGET_BENCH_SHORT"] != nil

/// Typical inputs: spaces up to 2^256, counts up to 10^18.
let typical: [(space: BigInt, count: BigInt)] = [
    (BigInt.power(2, 122), BigInt(1_000_000_000)),
    (BigInt.power(62, 22), BigInt(315_360_000_000_000)),
    (BigInt.power(2, 64), BigInt(5_000_000_000)),
    (BigInt.power(2, 256), BigInt.power(10, 18)),
    (BigInt.power(36, 12), BigInt(1_000_000)),
]

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(short ? 1 : 3),
        maxIterations: short ? 2000 : 20000
    )

    var i = 0
    Benchmark("Math.probability.typical") { benchmark in
        for _ in benchmark.scaledIterations {
            let c = typical[i % typical.count]
            i += 1
            blackHole(try? Birthday.probability(space: c.space, count: c.count))
        }
    }

    // The seed article: 10^6/s for 10 years at p ≤ 1e-11, base62.
    let article = try! Workload(rate: Rate(parsing: "1e6/s"), lifetime: Lifetime(parsing: "10y")).volume()
    let budget = try! Budget(parsing: "1e-11")
    Benchmark("Math.length.article") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? Birthday.minimumLength(alphabetSize: 62, count: article.count, budget: budget))
        }
    }
    Benchmark("Math.capacity.article") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? Birthday.capacity(space: BigInt.power(62, 23), budget: budget))
        }
    }
}
