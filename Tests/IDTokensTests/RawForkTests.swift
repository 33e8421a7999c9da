import CTokens
import Foundation
import TestSupport
import Testing

@testable import IDTokens

/// A child made by the raw fork system call runs no `pthread_atfork` handler, so a fork epoch never
/// learns of it. Without wipe-on-fork pages (the fallback) and with them, every generator type, through
/// `next()` and through bulk `fill`, must give parent and child ids with nothing in common, whichever
/// of the two draws first after the fork.
@Suite(.serialized) struct RawForkTests {
    static let count = 200, warmup = 10

    enum Kind: Sendable, CustomTestStringConvertible {
        case token(fill: Bool)
        case sharedToken(fill: Bool)
        case id(IDFormat, fill: Bool)
        case sharedID(IDFormat, fill: Bool)

        static let all: [Kind] = [true, false].flatMap { fill in
            [.token(fill: fill), .sharedToken(fill: fill)]
                + IDFormat.allCases.flatMap { [Kind.id($0, fill: fill), .sharedID($0, fill: fill)] }
        }

        var testDescription: String {
            switch self {
            case .token(let fill): "TokenGenerator.\(fill ? "fill" : "next")"
            case .sharedToken(let fill): "SharedTokenGenerator.\(fill ? "fill" : "next")"
            case .id(let f, let fill): "IDGenerator(.\(f.rawValue)).\(fill ? "fill" : "next")"
            case .sharedID(let f, let fill): "SharedIDGenerator(.\(f.rawValue)).\(fill ? "fill" : "next")"
            }
        }
    }

    /// The id length and a function that writes `buffer.count / length` ids into `buffer`, unseparated.
    static func minter(_ kind: Kind, _ protection: ForkProtection) throws -> (length: Int, mint: (UnsafeMutableRawBufferPointer) -> Void) {
        func byNext(_ length: Int, _ next: @escaping () -> String) -> (Int, (UnsafeMutableRawBufferPointer) -> Void) {
            (
                length,
                { buffer in
                    for i in 0..<(buffer.count / length) {
                        var id = next()
                        id.withUTF8 { utf8 in
                            for j in 0..<Swift.min(length, utf8.count) { buffer[i * length + j] = utf8[j] }
                        }
                    }
                }
            )
        }
        var options = TokenEngine.Options()
        options.forkProtection = protection
        let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        switch kind {
        case .token(let fill):
            let g = try TokenGenerator(bytes: base62, length: 22, source: SecureRandom(forkProtection: protection), options: options)
            return fill ? (22, { _ = g.fill($0, separator: nil) }) : byNext(22, g.next)
        case .sharedToken(let fill):
            let g = try SharedTokenGenerator(bytes: base62, length: 22, forkProtection: protection)
            return fill ? (22, { _ = g.fill($0, separator: nil) }) : byNext(22, g.next)
        case .id(let format, let fill):
            let g = IDGenerator(format, monotonic: nil, forkProtection: protection)
            // Decimal ids vary in length: one a slot, by next().
            return fill && !format.isDecimal ? (format.length, { _ = g.fill($0, separator: nil) }) : byNext(format.length, g.next)
        case .sharedID(let format, let fill):
            let g = try SharedIDGenerator(format, monotonic: nil, forkProtection: protection)
            return fill && !format.isDecimal ? (format.length, { _ = g.fill($0, separator: nil) }) : byNext(format.length, g.next)
        }
    }

    /// Mints `warmup` ids, forks by the raw system call, and has child and parent mint `count` ids each,
    /// the child first or the parent first. No malloc lock is reset in a raw fork's child, so a child
    /// minting Strings can deadlock on one another thread held: `Forked` kills it and the experiment
    /// runs again.
    static func forkAndMint(_ kind: Kind, _ protection: ForkProtection, childFirst: Bool) throws -> (parent: [String], child: [String]) {
        try Forked.attempts {
            let (length, mint) = try minter(kind, protection)
            var warm = [UInt8](repeating: 0, count: length * warmup)
            warm.withUnsafeMutableBytes { mint($0) }
            var buffer = [UInt8](repeating: 0, count: length * count)
            let forked = try Forked(fork: { pid_t(idt_raw_fork_for_testing()) }) { child in
                if !childFirst { child.waitForGo() }
                buffer.withUnsafeMutableBytes { mint($0) }
                return buffer.withUnsafeBytes { child.send($0) } ? 0 : 1
            }
            let child: [UInt8]
            if childFirst {
                child = forked.read(count: length * count)
                buffer.withUnsafeMutableBytes { mint($0) }
            } else {
                buffer.withUnsafeMutableBytes { mint($0) }
                forked.release()
                child = forked.read(count: length * count)
            }
            guard forked.wait() == .exited(0), child.count == length * count else { return nil }
            func split(_ bytes: [UInt8]) -> [String] {
                stride(from: 0, to: bytes.count, by: length).map { String(decoding: bytes[$0..<$0 + length], as: UTF8.self) }
            }
            return (split(buffer), split(child))
        }
    }

    @Test(arguments: Kind.all, [(ForkProtection.automatic, true), (.automatic, false), (.forkEpoch, true), (.forkEpoch, false)])
    func rawForkChildSharesNoId(kind: Kind, mode: (protection: ForkProtection, childFirst: Bool)) throws {
        let (parent, child) = try Self.forkAndMint(kind, mode.protection, childFirst: mode.childFirst)
        let shared = Set(parent).intersection(child)
        #expect(
            shared.isEmpty,
            "\(shared.count) of \(Self.count) ids shared (\(mode.protection), \(mode.childFirst ? "child" : "parent") first)")
        #expect(Set(child).count == Self.count && Set(parent).count == Self.count)
    }

    /// The control: with no protection the raw-forked child replays its parent, so the test above can fail.
    @Test func unprotectedRawForkReplays() throws {
        let (parent, child) = try Self.forkAndMint(.token(fill: true), .none, childFirst: true)
        #expect(parent == child)
    }
}
