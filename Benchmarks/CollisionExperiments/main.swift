import Foundation
import IDBudget
import IDTokens

// Empirical collision counts against theory. For each alphabet and length, mint n tokens in a space
// small enough that thousands of duplicates are expected, count duplicates exactly with a d-bit bitmap
// (memory: d/8 bytes, at most 8 MB here), and compare with the occupancy mean and variance from the
// math core as a z-score. A deliberately biased generator (`byte % 62`) is the negative control.
//
// Usage: collision-experiments [OUTPUT_DIR] [--short]    (writes collisions.json and collisions.csv)

struct Experiment {
    let generator: String
    let alphabet: Alphabet
    let length: Int
    let count: Int
}

struct Row: Encodable {
    let generator: String
    let alphabet: String
    let length: Int
    let space: Int
    let count: Int
    let trial: Int
    let observed: Int
    let expected: Double
    let sd: Double
    let z: Double
}

let arguments = CommandLine.arguments.dropFirst()
let short = arguments.contains("--short")
let output = URL(fileURLWithPath: arguments.first { !$0.hasPrefix("--") } ?? "results")
let trials = short ? 3 : 10

let experiments = [
    Experiment(generator: "idbudget", alphabet: .base62, length: 4, count: 1_000_000),
    Experiment(generator: "idbudget", alphabet: .base64url, length: 4, count: 1_000_000),
    Experiment(generator: "idbudget", alphabet: .base58, length: 4, count: 800_000),
    Experiment(generator: "idbudget", alphabet: .base36, length: 5, count: 1_500_000),
    Experiment(generator: "idbudget", alphabet: .base32, length: 5, count: 1_000_000),
    Experiment(generator: "idbudget", alphabet: .hex, length: 6, count: 1_000_000),
    Experiment(generator: "idbudget", alphabet: .decimal, length: 7, count: 800_000),
    Experiment(generator: "biased byte % 62", alphabet: .base62, length: 4, count: 1_000_000),
]

/// Token → its index in [0, d) as a base-|alphabet| number.
func index(_ token: UnsafeBufferPointer<UInt8>, _ value: [Int], _ radix: Int) -> Int {
    token.reduce(0) { $0 * radix + value[Int($1)] }
}

func run(_ e: Experiment, trial: Int) -> Row {
    let symbols = e.alphabet.bytes!
    let radix = symbols.count
    var value = [Int](repeating: 0, count: 256)
    for (i, b) in symbols.enumerated() { value[Int(b)] = i }
    let d = (0..<e.length).reduce(1) { r, _ in r * radix }
    var seen = [UInt64](repeating: 0, count: d / 64 + 1)
    var duplicates = 0
    var token = [UInt8](repeating: 0, count: e.length)
    let generator = try! TokenGenerator(alphabet: e.alphabet, length: e.length)
    var rng = SecureRandom()
    for _ in 0..<e.count {
        token.withUnsafeMutableBytes { buffer in
            if e.generator == "idbudget" {
                _ = generator.fill(buffer, separator: nil)
            } else {
                var w = rng.next()
                for i in 0..<e.length {
                    buffer[i] = symbols[Int(w & 0xff) % radix]
                    w >>= 8
                }
            }
        }
        let k = token.withUnsafeBufferPointer { index($0, value, radix) }
        let bit = UInt64(1) << UInt64(k & 63)
        if seen[k >> 6] & bit != 0 { duplicates += 1 } else { seen[k >> 6] |= bit }
    }
    let (mean, variance) = Birthday.duplicateStatistics(space: BigInt(d), count: BigInt(e.count))
    let sd = variance.squareRoot()
    return Row(
        generator: e.generator, alphabet: e.alphabet.name!, length: e.length, space: d, count: e.count,
        trial: trial, observed: duplicates, expected: mean, sd: sd, z: (Double(duplicates) - mean) / sd)
}

var rows: [Row] = []
for e in experiments {
    for t in 0..<trials { rows.append(run(e, trial: t)) }
    let mine = rows.filter { $0.generator == e.generator && $0.alphabet == e.alphabet.name! }
    let zAll = mine.map(\.z).reduce(0, +) / Double(mine.count).squareRoot()
    print(
        "\(e.generator.padding(toLength: 18, withPad: " ", startingAt: 0)) \(e.alphabet.name!)^\(e.length)  n=\(e.count)  "
            + "expected \(String(format: "%.1f", mine[0].expected))  observed mean \(String(format: "%.1f", Double(mine.map(\.observed).reduce(0, +)) / Double(mine.count)))  "
            + "combined z \(String(format: "%+.2f", zAll))")
}

try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try encoder.encode(rows).write(to: output.appendingPathComponent("collisions.json"))
var csv = "generator,alphabet,length,space,count,trial,observed,expected,sd,z\n"
for r in rows {
    csv += "\(r.generator),\(r.alphabet),\(r.length),\(r.space),\(r.count),\(r.trial),\(r.observed),\(r.expected),\(r.sd),\(r.z)\n"
}
try csv.write(to: output.appendingPathComponent("collisions.csv"), atomically: true, encoding: .utf8)
// The random bits the generator spends per symbol, for the benchmark report's ceiling.
var sampler: [String: Double] = [:]
for a in Alphabet.builtIns { sampler[a.name!] = try! TokenGenerator(alphabet: a, length: 22).bitsPerSymbol }
try encoder.encode(sampler).write(to: output.appendingPathComponent("sampler.json"))
print("wrote \(output.path)/collisions.json, collisions.csv and sampler.json")
