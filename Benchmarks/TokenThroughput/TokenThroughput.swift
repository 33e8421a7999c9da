import Benchmark
import CounterFloor
import Foundation
import IDTokens

// One scaled iteration = one token (or, for the CSPRNG, one byte), so "throughput" reads directly as
// tokens/s (bytes/s). Peers run in the same process and the same run, so ratios between them hold even
// on a noisy shared machine. IDBUDGET_BENCH_SHORT=1 gives the short CI mode.

let short = ProcessInfo.processInfo.environment["IDBUDGET_BENCH_SHORT"] != nil
let base62Characters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

// Generators and buffers live across iterations, as in a service: what is measured is the steady
// state, not seeding (mmap, getrandom) or first-touch page faults.

/// Fills a buffer with `scaledIterations` newline-separated tokens.
func bulk(_ alphabet: Alphabet, length: Int) -> (Benchmark) -> Void {
    let generator = try! TokenGenerator(alphabet: alphabet, length: length)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000 * (length + 1), alignment: 64)
    buffer.initializeMemory(as: UInt8.self, repeating: 0)
    return { benchmark in
        precondition(benchmark.scaledIterations.count == 1000)
        blackHole(generator.fill(buffer, separator: 10))
    }
}

func strings(_ alphabet: Alphabet, length: Int) -> (Benchmark) -> Void {
    let generator = try! TokenGenerator(alphabet: alphabet, length: length)
    return { benchmark in
        for _ in benchmark.scaledIterations { blackHole(generator.next()) }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(short ? 1 : 4),
        maxIterations: short ? 200 : 2000
    )

    // idbudget's generator, through each output form.
    Benchmark("Generator.String.base62x22", closure: strings(.base62, length: 22))
    let arrays = try! TokenGenerator(alphabet: .base62, length: 22)
    Benchmark("Generator.Array.base62x22") { benchmark in
        blackHole(arrays.next(benchmark.scaledIterations.count))
    }
    Benchmark("Generator.Bulk.base62x22", closure: bulk(.base62, length: 22))
    Benchmark("Generator.String.hex32", closure: strings(.hex, length: 32))
    Benchmark("Generator.Bulk.hex32", closure: bulk(.hex, length: 32))
    Benchmark("Generator.String.base64urlx22", closure: strings(.base64url, length: 22))
    Benchmark("Generator.Bulk.base64urlx22", closure: bulk(.base64url, length: 22))

    // The time-ordered formats' clock reads the real-time clock each call until it has measured the
    // CPU counter's rate (5 ms into the process; see `idt_clock`): the steady state starts after it.
    let warm = IDGenerator(.uuid7)
    let started = ContinuousClock.now
    while ContinuousClock.now - started < .milliseconds(10) { blackHole(warm.next() as GeneratedID) }

    // Standard formats: one at a time, as `next()` returns them (an inline `GeneratedID`) and as
    // Strings; and in bulk (what `generate` does).
    for format in IDFormat.allCases {
        let values = IDGenerator(format)
        Benchmark("Format.Next.\(format.rawValue)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(values.next() as GeneratedID) }
        }
        let ids = IDGenerator(format)
        Benchmark("Format.String.\(format.rawValue)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(ids.next() as String) }
        }
        let bulk = IDGenerator(format)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1000 * (format.length + 1), alignment: 64)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        Benchmark("Format.Bulk.\(format.rawValue)") { benchmark in
            precondition(benchmark.scaledIterations.count == 1000)
            // Decimal ids vary in length: exactly 1000 of them, however many would fit.
            blackHole(
                format.isDecimal ? (try? bulk.write(into: buffer, separator: 10, limit: 1000))?.ids ?? 0 : bulk.fill(buffer, separator: 10))
        }
    }

    // The Sendable generator a server keeps in a `static let`: one thread, then two threads at once
    // (each call mints 2 × 50,000 tokens with DispatchQueue.concurrentPerform; bench_report scales it).
    let shared = try! SharedTokenGenerator(alphabet: .base62, length: 22)
    Benchmark("Generator.Shared.base62x22") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(shared.next()) }
    }
    Benchmark("Generator.Shared2Threads.base62x22", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in 0..<50_000 { blackHole(shared.next()) }
            }
        }
    }

    // A node-id format's shared generator: one thread, then 8 threads at once on however many cores
    // (each call mints 8 × 12,500 ids; bench_report scales it). Every thread's generator reserves its
    // ids from the process's one node with a compare-and-swap: with a lock instead, 8 threads on 2 cores
    // fell from 3.4–4.6 M ids/s to 50 k.
    let sharedSnowflake = try! SharedIDGenerator(.snowflake)
    Benchmark("Generator.SharedSnowflake.1Thread") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(sharedSnowflake.next() as String) }
    }
    Benchmark("Generator.SharedSnowflake8Threads", configuration: .init(scalingFactor: .one)) { benchmark in
        for _ in benchmark.scaledIterations {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                for _ in 0..<12_500 { blackHole(sharedSnowflake.next() as String) }
            }
        }
    }

    // The floors under `next()`: a 36-byte native String (ids over 15 bytes live on the heap), under
    // the String form; one read of the real-time clock, and one of the CPU counter that stands in for
    // it between reads, which a time-ordered id needs per call. The report sets `IDGenerator.next()`
    // against these, not only against `fill`.
    let text = Array(repeating: UInt8(ascii: "a"), count: 36)
    Benchmark("Floor.String.36bytes") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(
                String(unsafeUninitializedCapacity: 36) {
                    _ = $0.initialize(from: text)
                    return 36
                })
        }
    }
    Benchmark("Floor.Clock.realtime") { benchmark in
        var ts = timespec()
        for _ in benchmark.scaledIterations {
            clock_gettime(CLOCK_REALTIME, &ts)
            blackHole(ts.tv_nsec)
        }
    }
    Benchmark("Floor.Clock.counter") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(counter_floor_read()) }
    }

    // What a Swift user would write instead.
    Benchmark("Peer.UUID.uuidString") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(UUID().uuidString) }
    }
    Benchmark("Peer.Naive.randomElement.base62x22") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(String((0..<22).map { _ in base62Characters.randomElement()! }))
        }
    }

    // The ceiling: raw CSPRNG bytes/s (one scaled iteration = one byte).
    var secure = SecureRandom()
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
    bytes.initializeMemory(as: UInt8.self, repeating: 0)
    Benchmark("CSPRNG.SecureRandom.bytes", configuration: .init(scalingFactor: .mega)) { benchmark in
        precondition(benchmark.scaledIterations.count == 1 << 20 || benchmark.scaledIterations.count == 1_000_000)
        secure.fill(UnsafeMutableRawBufferPointer(rebasing: bytes[..<benchmark.scaledIterations.count]))
        blackHole(bytes[0])
    }
    Benchmark("CSPRNG.SystemRandomNumberGenerator.bytes") { benchmark in
        var rng = SystemRandomNumberGenerator()
        var sum: UInt64 = 0
        for _ in 0..<(benchmark.scaledIterations.count / 8) { sum &+= rng.next() }
        blackHole(sum)
    }
}
