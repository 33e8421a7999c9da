/// Maps random bits to symbols without bias, spending few bits per symbol.
///
/// For an alphabet of n symbols it reads k-bit chunks r (k chosen below) and accepts r when
/// r < ⌊2^k/n⌋·n, emitting symbol r mod n: every symbol then has exactly ⌊2^k/n⌋ chunks mapping to it,
/// so the output is uniform; rejected chunks are discarded, never folded in. k minimises the expected
/// bits per symbol, k·2^k/(⌊2^k/n⌋·n): base62 uses 6 bits (accepting 62/64, ≈ 6.2 bits per symbol),
/// base64 and hex use 6 and 4 with no rejection, base36 uses 8 (≈ 8.1). A lookup table does the
/// test and the mapping in one load.
struct SymbolSampler {
    let bits: Int
    let mask: UInt64
    let chunksPerWord: Int
    /// The alphabet's size n: table[r] = table[r mod n] for every accepted chunk.
    let symbolCount: Int
    /// table[r] = the symbol byte for chunk r, or `reject` (0x100).
    let table: [UInt16]
    static let reject: UInt16 = 0x100

    init(symbols: [UInt8]) {
        let n = symbols.count
        precondition(n >= 2 && n <= 256)
        symbolCount = n
        var minBits = 1
        while (1 << minBits) < n { minBits += 1 }
        var best = minBits
        var bestCost = Double.infinity
        for k in minBits...Swift.max(minBits, 12) {
            let size = 1 << k
            let accepted = (size / n) * n
            let cost = Double(k) * Double(size) / Double(accepted)
            if cost < bestCost - 1e-12 {
                best = k
                bestCost = cost
            }
        }
        bits = best
        mask = (1 << UInt64(best)) - 1
        chunksPerWord = 64 / best
        let size = 1 << best
        let limit = (size / n) * n
        table = (0..<size).map { r in r < limit ? UInt16(symbols[r % n]) : Self.reject }
    }

    /// Expected random bits consumed per symbol, counting the bits left over in each 64-bit word.
    var bitsPerSymbol: Double {
        let accepted = Double(table.filter { $0 != Self.reject }.count) / Double(table.count)
        return 64 / Double(chunksPerWord) / accepted
    }
}
