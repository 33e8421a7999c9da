import Foundation
import IDTokens

// Every format's bulk fill against base62×22 tokens, as ratios of ids/s measured pair by pair: each
// round times base62×22, then the format, on 1000-id buffers (as `Format.Bulk.*` does), so a drift in
// the machine's speed (a shared, noisy host) moves both sides of a ratio alike. Prints JSON: per
// format the ratios' min / median / max over the rounds and the ns an id of each side (medians).
// `format-ratios [rounds]`; IDTOKENS_SAMPLER picks the kernels as for every other benchmark.

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 41 : 41
let ids = 1000
let repeats = 100

func nanoseconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<repeats { body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(repeats * ids)
}

func spread(_ values: [Double]) -> [String: Double] {
    let sorted = values.sorted()
    return ["min": sorted.first ?? 0, "median": sorted.isEmpty ? 0 : sorted[sorted.count / 2], "max": sorted.last ?? 0]
}

guard let tokens = try? TokenGenerator(alphabet: .base62, length: 22) else { fatalError("base62×22 generator") }
let tokenBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ids * 23, alignment: 64)
tokenBuffer.initializeMemory(as: UInt8.self, repeating: 0)
var result: [String: Any] = [
    "rounds": rounds, "ids_per_timing": ids * repeats,
    "sampler": ProcessInfo.processInfo.environment["IDTOKENS_SAMPLER"] ?? "default",
]
var formats: [String: Any] = [:]
// The time-ordered formats' clock settles 5 ms into the process (see `idt_clock`).
let warm = IDGenerator(.uuid7)
let started = ContinuousClock.now
while ContinuousClock.now - started < .milliseconds(10) { _ = warm.next() as GeneratedID }
for format in IDFormat.allCases {
    let generator = IDGenerator(format)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ids * (format.length + 1), alignment: 64)
    buffer.initializeMemory(as: UInt8.self, repeating: 0)
    func mint() {
        // Decimal ids vary in length: exactly 1000 of them, however many would fit.
        if format.isDecimal {
            _ = try? generator.write(into: buffer, separator: 10, limit: ids)
        } else {
            _ = generator.fill(buffer, separator: 10)
        }
    }
    var ratios: [Double] = []
    var base: [Double] = []
    var own: [Double] = []
    _ = nanoseconds(mint)
    for _ in 0..<rounds {
        let b = nanoseconds { _ = tokens.fill(tokenBuffer, separator: 10) }
        let f = nanoseconds(mint)
        base.append(b)
        own.append(f)
        ratios.append(b / f)  // ids/s of the format over ids/s of base62×22
    }
    formats[format.rawValue] = [
        "ratio": spread(ratios), "ns_per_id": spread(own)["median"] ?? 0,
        "base62x22_ns_per_id": spread(base)["median"] ?? 0,
    ]
    buffer.deallocate()
}
result["formats"] = formats
let data = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys])
print(String(decoding: data, as: UTF8.self))
