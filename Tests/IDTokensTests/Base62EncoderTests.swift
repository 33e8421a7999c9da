import CTokens
import Foundation
import Testing

@testable import IDTokens

/// The batch base62 encoder of 160-bit values (`idt_base62_160`, KSUID text) and the KSUID batch path
/// of `IDGenerator.fill`. Every kernel is checked against Python's exact integers
/// (Tests/Oracles/base62_vectors.py → Base62Vectors.swift) and against the Swift per-id encoder.
@Suite struct Base62EncoderTests {
    typealias Kernel = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int) -> Void

    /// 0 scalar, 1 AVX2, 2 AVX-512, 3 the dispatcher; each only where the CPU has it.
    static let kernels = [0, 1, 2, 3]
    static func runs(_ kernel: Int) -> Bool {
        switch kernel {
        case 1: idt_base62_160_avx2_available() != 0
        case 2: idt_base62_160_avx512_available() != 0
        default: true
        }
    }
    static func encode(_ kernel: Int, _ values: [UInt8], stride: Int, filler: UInt8 = 0xEE) -> [UInt8] {
        let count = values.count / 20
        var out = [UInt8](repeating: filler, count: count * stride)
        let run: Kernel =
            switch kernel {
            case 0: idt_base62_160_scalar
            case 1: idt_base62_160_avx2
            case 2: idt_base62_160_avx512
            default: idt_base62_160
            }
        values.withUnsafeBufferPointer { v in out.withUnsafeMutableBufferPointer { run(v.baseAddress, count, $0.baseAddress, stride) } }
        return out
    }
    /// The plain reference: 20 bytes (a big-endian 160-bit number) in base62, 27 characters,
    /// zero-padded: five 32-bit words divided by 62^5 six times, each remainder giving five digits.
    static func base62(_ bytes: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        var w = (UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0))
        withUnsafeMutableBytes(of: &w) { raw in
            for j in 0..<5 {
                let word =
                    UInt32(bytes[4 * j]) << 24 | UInt32(bytes[4 * j + 1]) << 16 | UInt32(bytes[4 * j + 2]) << 8 | UInt32(bytes[4 * j + 3])
                raw.storeBytes(of: word, toByteOffset: 4 * j, as: UInt32.self)
            }
        }
        var digits = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &w) { raw in
            let words = raw.bindMemory(to: UInt32.self)
            (IDFormat.ksuid.alphabet.bytes ?? []).withUnsafeBufferPointer { alphabet in
                withUnsafeMutableBytes(of: &digits) { d in
                    let text = d.bindMemory(to: UInt8.self)  // 30 digits, most significant first
                    for pass in 0..<6 {
                        var remainder: UInt64 = 0
                        for j in 0..<5 {
                            let acc = remainder << 32 | UInt64(words[j])
                            words[j] = UInt32(truncatingIfNeeded: acc / 916_132_832)  // 62^5
                            remainder = acc % 916_132_832
                        }
                        for k in 0..<5 {
                            text[29 - 5 * pass - k] = alphabet[Int(remainder % 62)]
                            remainder /= 62
                        }
                    }
                    for i in 0..<27 { out[i] = text[3 + i] }
                }
            }
        }
    }

    static func bytes(hex: String) -> [UInt8] {
        let h = Array(hex.utf8)
        return stride(from: 0, to: h.count, by: 2).map { UInt8(String(decoding: h[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
    static func ids(_ out: [UInt8], stride: Int) -> [String] {
        Swift.stride(from: 0, to: out.count, by: stride).map { String(decoding: out[$0..<$0 + 27], as: UTF8.self) }
    }

    /// The oracle's vectors in one batch, at strides 27 (back to back), 28 and 40; the bytes between
    /// ids are untouched.
    @Test(arguments: kernels, [27, 28, 40])
    func matchesPythonVectors(kernel: Int, stride: Int) throws {
        guard Self.runs(kernel) else { return }
        let values = Base62Vectors.all.flatMap { Self.bytes(hex: $0.hex) }
        let out = Self.encode(kernel, values, stride: stride)
        #expect(Self.ids(out, stride: stride) == Base62Vectors.all.map(\.text))
        for i in 0..<Base62Vectors.all.count {
            #expect(out[(i * stride + 27)..<((i + 1) * stride)].allSatisfy { $0 == 0xEE })
        }
    }

    /// Every batch length 0…70 (every tail of the 32-value SIMD blocks), each value where it lands in
    /// the batch, against the scalar kernel and the Swift per-id encoder; nothing written past the last id.
    @Test(arguments: kernels)
    func everyBatchLength(kernel: Int) throws {
        guard Self.runs(kernel) else { return }
        var rng = SeededRandom(seed: 62)
        for count in 0...70 {
            var values = [UInt8](repeating: 0, count: 20 * count)
            values.withUnsafeMutableBytes { rng.fill($0) }
            if count > 3 { for j in 0..<20 { values[20 + j] = 0xFF } }  // 2^160 − 1 somewhere inside
            let out = Self.encode(kernel, values, stride: 28)
            #expect(out == Self.encode(0, values, stride: 28))
            for i in 0..<count {
                var text = [UInt8](repeating: 0, count: 27)
                values.withUnsafeBufferPointer { v in Self.base62(v.baseAddress! + 20 * i, into: &text) }
                #expect(Array(out[(28 * i)..<(28 * i + 27)]) == text)
            }
        }
    }

    /// Many random values (and KSUID-shaped ones: real timestamps) against the scalar kernel.
    @Test(arguments: [1, 2, 3])
    func randomValuesAgreeWithScalar(kernel: Int) throws {
        guard Self.runs(kernel) else { return }
        var rng = SeededRandom(seed: 160)
        var values = [UInt8](repeating: 0, count: 20 * 20_000)
        values.withUnsafeMutableBytes { rng.fill($0) }
        for i in stride(from: 0, to: 20_000, by: 2) { values[20 * i] = 0x10 }
        #expect(Self.encode(kernel, values, stride: 27) == Self.encode(0, values, stride: 27))
    }

    /// `idt_ksuid_text` (one stamp, then 16 random bytes an id; the AVX-512 kernel divides only the
    /// random bits and adds the stamp's base 62^5 chunks): each oracle vector on its own, then batches
    /// of every length 0…70 under the extreme stamps, with all-zero and all-one random parts inside,
    /// against the scalar kernel on the same 20-byte values.
    /// Kernel 4: the AVX-512 one as a CPU without VBMI runs it.
    @Test(arguments: kernels + [4])
    func ksuidPartsMatchWholeValues(kernel: Int) throws {
        guard Self.runs(kernel == 4 ? 2 : kernel) else { return }
        typealias Parts = (UInt32, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int) -> Void
        let run: Parts =
            switch kernel {
            case 0: idt_ksuid_text_scalar
            case 1: idt_ksuid_text_avx2
            case 2: idt_ksuid_text_avx512
            case 4: idt_ksuid_text_avx512bw
            default: idt_ksuid_text
            }
        func encode(_ stamp: UInt32, _ random: [UInt8], stride: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0xEE, count: random.count / 16 * stride)
            random.withUnsafeBufferPointer { r in
                out.withUnsafeMutableBufferPointer { run(stamp, r.baseAddress, random.count / 16, $0.baseAddress, stride) }
            }
            return out
        }
        for vector in Base62Vectors.all {
            let value = Self.bytes(hex: vector.hex)
            let stamp = value[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(Self.ids(encode(stamp, Array(value[4...]), stride: 27), stride: 27) == [vector.text])
        }
        var rng = SeededRandom(seed: 128)
        for stamp: UInt32 in [0, 1, 0x0FFF_FFFF, 0x1234_5678, 0xFFFF_FFFE, 0xFFFF_FFFF] {
            for count in 0...70 {
                var random = [UInt8](repeating: 0, count: 16 * count)
                random.withUnsafeMutableBytes { rng.fill($0) }
                if count > 3 {
                    for j in 0..<16 { random[16 + j] = 0xFF }
                    for j in 0..<16 { random[32 + j] = 0 }
                }
                let values = (0..<count).flatMap { i in
                    withUnsafeBytes(of: stamp.bigEndian) { Array($0) } + random[(16 * i)..<(16 * i + 16)]
                }
                #expect(encode(stamp, random, stride: 28) == Self.encode(0, values, stride: 28), "stamp \(stamp), \(count) ids")
            }
        }
    }

    @Test func kernelNameIsOneOfThem() {
        let name = String(cString: idt_base62_160_kernel_name())
        #expect(["scalar", "avx2", "avx512"].contains(name))
        // IDTOKENS_ENCODER, else IDTOKENS_SAMPLER, forces it when the CPU has it.
        let env = ProcessInfo.processInfo.environment
        let want = env["IDTOKENS_ENCODER"].flatMap { $0.isEmpty ? nil : $0 } ?? env["IDTOKENS_SAMPLER"]
        if want == "scalar" { #expect(name == "scalar") }
        if want == "avx2" && idt_base62_160_avx2_available() != 0 { #expect(name == "avx2") }
    }

    // MARK: The batch path of IDGenerator.fill

    static func fill(_ generator: IDGenerator, count: Int, checked: Bool = false) throws -> [String] {
        var buffer = [UInt8](repeating: 0, count: 28 * count)
        let n = try buffer.withUnsafeMutableBytes { checked ? try generator.fillChecked($0) : generator.fill($0) }
        let text = String(decoding: buffer.prefix(28 * n), as: UTF8.self)
        #expect(n == 0 || text.last == "\n")
        return text.split(separator: "\n").map(String.init)
    }
    static func seconds(_ id: String) -> UInt64 { FormatTests.number(FormatTests.bits(.ksuid, id)[0..<32]) }

    /// Ids from fill carry the clock's second (read once per chunk of `ksuidChunk` ids: every chunk sees its own), are
    /// distinct, and re-encode to themselves.
    @Test func batchIdsHaveTheClocksTimestamp() throws {
        let generator = IDGenerator(.ksuid)
        var now: UInt64 = 1_700_000_000_123
        generator.testClock = {
            defer { now += 1000 }
            return now
        }
        let ids = try Self.fill(generator, count: 1000)
        #expect(ids.count == 1000 && Set(ids).count == 1000)
        for (i, id) in ids.enumerated() {
            #expect(Self.seconds(id) == 1_700_000_000 - IDGenerator.ksuidEpoch + UInt64(i / IDGenerator.ksuidChunk), "\(i) \(id)")
        }
        let plain = try Self.fill(IDGenerator(.ksuid), count: 100_000)
        #expect(Set(plain).count == 100_000)
        let now2 = Double(IDGenerator.unixMilliseconds()) / 1000
        #expect(plain.allSatisfy { abs(Double(Self.seconds($0) + IDGenerator.ksuidEpoch) - now2) < 60 })
    }

    /// The end of time in a batch: checked, a clock outside KSUID's range stops the fill at the chunk
    /// where it happens (throws when no id was written); unchecked, the stamp is held at the nearest end.
    @Test func batchEndOfTime() throws {
        let last = (IDGenerator.ksuidEpoch + UInt64(UInt32.max)) * 1000 + 999
        let generator = IDGenerator(.ksuid)
        var calls = 0
        generator.testClock = {
            calls += 1
            return calls == 1 ? last : last + 1
        }
        let ids = try Self.fill(generator, count: 600, checked: true)
        #expect(ids.count == IDGenerator.ksuidChunk && ids.allSatisfy { Self.seconds($0) == UInt64(UInt32.max) })
        #expect(throws: IDGeneratorError.endOfTime(.ksuid)) { try Self.fill(generator, count: 10, checked: true) }
        let held = try Self.fill(generator, count: 600)
        #expect(held.count == 600 && held.allSatisfy { Self.seconds($0) == UInt64(UInt32.max) })
        generator.testClock = { IDGenerator.ksuidEpoch * 1000 - 1 }
        #expect(throws: IDGeneratorError.endOfTime(.ksuid)) { try Self.fill(generator, count: 10, checked: true) }
        let early = try Self.fill(generator, count: 300)
        #expect(early.count == 300 && early.allSatisfy { Self.seconds($0) == 0 })
        generator.testClock = { IDGenerator.ksuidEpoch * 1000 }
        #expect(try Self.fill(generator, count: 300, checked: true).allSatisfy { Self.seconds($0) == 0 })
    }
}

/// The decimal encoder of the Snowflake family against Swift's own `String(_:)`: every length from 1
/// to 20 digits, the powers of ten and their neighbours, and random values.
@Suite struct DecimalEncoderTests {
    static func encoded(_ v: UInt64) -> String {
        var buffer = [UInt8](repeating: 0, count: 24)
        let n = buffer.withUnsafeMutableBufferPointer { FormatEncoding.decimal(v, into: $0.baseAddress!) }
        return String(decoding: buffer.prefix(n), as: UTF8.self)
    }

    @Test func matchesSwiftsDecimal() {
        var values: [UInt64] = [0, 1, 9, 10, 99, 100, UInt64.max, UInt64.max - 1, 1 << 63, (1 << 63) - 1]
        var p: UInt64 = 1
        for _ in 0..<19 {
            p *= 10
            values += [p - 1, p, p + 1]
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<100_000 { values.append(UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)) }
        for v in values { #expect(Self.encoded(v) == String(v), "\(v)") }
    }
}
