import Benchmark
import Foundation
import IDTokens

// One scaled iteration = one token (or, for the CSPRNG, one byte), so "throughput" reads directly as
// tokens/s (bytes/s). Peers run in the same process and the same run, so ratios between them hold even
// on a noisy shared machine. IDBUDGET_BENCH_SHORT=1 gives the short CI mode.

let short = ProcessInfo.processInfo.environment["IDBUDGET_BENCH_SHORT"] != nil
let base62Characters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

/// Fills a buffer sized for `count` tokens of `length` symbols plus newlines.
func bulk(_ alphabet: Alphabet, length: Int) -> (Benchmark) -> Void {
    { benchmark in
        let generator = try! TokenGenerator(alphabet: alphabet, length: length)
        let count = benchmark.scaledIterations.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count * (length + 1), alignment: 64)
        defer { buffer.deallocate() }
        benchmark.startMeasurement()
        blackHole(generator.fill(buffer, separator: 10))
        benchmark.stopMeasurement()
    }
}

func strings(_ alphabet: Alphabet, length: Int) -> (Benchmark) -> Void {
    { benchmark in
        let generator = try! TokenGenerator(alphabet: alphabet, length: length)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(generator.next()) }
        benchmark.stopMeasurement()
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
    Benchmark("Generator.Array.base62x22") { benchmark in
        let generator = try! TokenGenerator(alphabet: .base62, length: 22)
        benchmark.startMeasurement()
        blackHole(generator.next(benchmark.scaledIterations.count))
        benchmark.stopMeasurement()
    }
    Benchmark("Generator.Bulk.base62x22", closure: bulk(.base62, length: 22))
    Benchmark("Generator.String.hex32", closure: strings(.hex, length: 32))
    Benchmark("Generator.Bulk.hex32", closure: bulk(.hex, length: 32))
    Benchmark("Generator.String.base64urlx22", closure: strings(.base64url, length: 22))
    Benchmark("Generator.Bulk.base64urlx22", closure: bulk(.base64url, length: 22))

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
    Benchmark("CSPRNG.SecureRandom.bytes", configuration: .init(scalingFactor: .mega)) { benchmark in
        var rng = SecureRandom()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: benchmark.scaledIterations.count, alignment: 64)
        defer { buffer.deallocate() }
        benchmark.startMeasurement()
        rng.fill(buffer)
        benchmark.stopMeasurement()
        blackHole(buffer[0])
    }
    Benchmark("CSPRNG.SystemRandomNumberGenerator.bytes") { benchmark in
        var rng = SystemRandomNumberGenerator()
        var sum: UInt64 = 0
        for _ in 0..<(benchmark.scaledIterations.count / 8) { sum &+= rng.next() }
        blackHole(sum)
    }
}
