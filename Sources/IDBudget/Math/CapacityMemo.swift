import Precise
import Synchronization

/// Capacities already found, by space, scopes and budget.
///
/// A `length` answer's schedule asks for the capacity of every shorter length, and it is the same at
/// every rate: a server answering one alphabet and budget at many rates (the common case: one service's
/// ids, its traffic changing) finds each once. The values are the exact capacities, so an answer is
/// the same with or without them. Bounded: only small keys are kept (a space and scopes of at most
/// 4,096 bits, a budget's fraction of at most 1,024 bits), at most 4,096 of them, cleared whole when
/// full.
enum CapacityMemo {
    struct Key: Hashable, Sendable {
        let space: BigInt
        let scopes: BigInt
        let numerator: BigInt
        let denominator: BigInt

        /// nil for a key too large to keep.
        init?(space: BigInt, scopes: BigInt, budget: Budget) {
            let (numerator, denominator) = budget.fraction
            guard space.bitWidth <= 4096, scopes.bitWidth <= 4096, denominator.bitWidth <= 1024 else { return nil }
            self.space = space
            self.scopes = scopes
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    static let limit = 4096
    private static let table = Mutex<[Key: BigInt]>([:])

    static func capacity(_ key: Key) -> BigInt? { table.withLock { $0[key] } }

    static func remember(_ key: Key, _ capacity: BigInt) {
        table.withLock { table in
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[key] = capacity
        }
    }

    /// How many are kept now (for tests).
    static var count: Int { table.withLock { $0.count } }
}
