import Precise

extension Planner {
    /// For a node-id format (`Scheme.node`): p that some two of `nodes` live nodes share a node value.
    ///
    /// Two nodes with different values never mint the same id; two with the same value do as soon as
    /// both mint in one tick where the counter starts at 0 each tick (Snowflake), and where it starts at
    /// random once per process (xid, ObjectId) only if their counters come within a tick's ids of each
    /// other: with a per-node rate, p is then `CounterOverlap`'s. Nodes that draw their value at random collide with the birthday
    /// probability over the field's 2^bits values, p = 1 − ∏_{i<K}(1 − i/2^bits), exact like every p
    /// here; assigned values (`assigned`, the default for MAC-addressed UUIDv1/v6) make it 0. With a
    /// per-node rate, a note says how much of one node's ceiling (the ids a tick its counter holds)
    /// the rate uses: past it, a node must wait for the next tick.
    public static func nodeProbability(scheme: Scheme, nodes: BigInt, assigned: Bool? = nil, ratePerNode: Rate? = nil) throws
        -> ProbabilityAnswer
    {
        guard let node = scheme.node else {
            throw InputError("\(scheme.name) ids are random, not kept apart by a node field; leave it out", argument: "node-ids")
        }
        guard nodes >= BigInt(1) else { throw InputError("nodes must be at least 1", argument: "nodes") }
        let assigned = assigned ?? node.assignedByDefault
        let values = BigInt.power(2, node.bits)
        // More nodes than values: however they are assigned, two share one (p = 1), as `length` says.
        let overfull = assigned && nodes > values
        let space = try Space(bits: node.bits, summary: "\(scheme.name) \(node.name): 2^\(node.bits)")
        var notes: [String] = []
        if overfull {
            notes.append(
                "node ids assigned, but \(nodes) nodes are more than the 2^\(node.bits) \(node.name) values: however they are assigned, two share one (p = 1), and two that share one mint the same ids whenever both mint in one tick."
            )
        } else if assigned {
            notes.append(
                "node ids assigned: no two live nodes share a \(node.name), so no two ids collide while each node's clock moves forward and it mints within its ceiling (p = 0)."
            )
        } else {
            notes.append(
                "node ids random: p is that two of the \(nodes) live nodes drew the same \(node.name) out of 2^\(node.bits); any two such nodes mint the same ids whenever both mint in one tick. Assign the ids (a registry, a lease, a config) and p is 0: --node-ids assigned."
            )
        }
        let perSecond = (numerator: BigInt(node.perTick) * BigInt(node.tick.denominator), denominator: BigInt(node.tick.numerator))
        let ceiling = "\(node.perTick) id\(node.perTick == 1 ? "" : "s") per \(tickText(node.tick)) a node"
        if let rate = ratePerNode {
            let (n, d) = (rate.perSecond.numerator, rate.perSecond.denominator)
            // The share of the ceiling, to 6 significant digits (100.024%), more where 6 would round a
            // rate off the ceiling to 100% (16777217/s for xid: 100.000006%), and in words past 15.
            let over = n * perSecond.denominator > d * perSecond.numerator
            let exact = n * perSecond.denominator == d * perSecond.numerator
            var percent = "100"
            if !exact {
                for digits in [6, 9, 12, 15] {
                    let used = ScientificDecimal.exact(
                        numerator: n * perSecond.denominator * BigInt(100), denominator: d * perSecond.numerator, significantDigits: digits)
                    percent = used.doubleValue.isFinite ? String(format: "%.\(digits)g", used.doubleValue) : used.short(digits)
                    if percent != "100" { break }
                }
                if percent == "100" { percent = over ? "just over 100" : "just under 100" }
            }
            notes.append(
                over
                    ? "ceiling: at \(rate) a node needs more than \(ceiling) (\(percent)% of its ceiling): it must wait for the next tick, and a minter that does not wait repeats ids."
                    : "ceiling: \(ceiling); \(rate) a node uses \(percent)% of it."
            )
        } else {
            notes.append("ceiling: \(ceiling); give --rate (per node) to compare.")
        }
        let count = assigned && !overfull ? BigInt(1) : nodes
        var collision =
            overfull
            ? Self.sharedValues(nodes: nodes, values: values)
            : try CollisionFigures(space: space.size, count: count, groups: BigInt(1))
        if !assigned, let rate = ratePerNode, nodes >= BigInt(2) {
            // The ids a node mints in one tick, at most.
            let m = Swift.max(
                BigInt(1),
                BigInt.ceilingQuotient(
                    rate.perSecond.numerator * BigInt(node.tick.numerator), rate.perSecond.denominator * BigInt(node.tick.denominator)))
            switch node.counterStart {
            case .oncePerProcess(let bits):
                let ring = BigInt.power(2, bits)
                if m * BigInt(2) - BigInt(1) < ring {
                    guard let (figures, digits) = try CounterOverlap.figures(values: values, counter: ring, perTick: m, nodes: nodes)
                    else {
                        // The one-ring formula cannot be bounded this far past K(m − 1) ≥ 2^bits: the
                        // node-value birthday would overstate p, so say what is certain instead.
                        var range = ""
                        if let (lo, hi) = CounterOverlap.complementRange(values: values, counter: ring, perTick: m, nodes: nodes) {
                            range = "; 1 − p lies between about \(lo.short(3)) and \(hi.short(3))"
                        }
                        throw InputError(
                            "\(nodes) nodes at \(m) ids a \(tickText(node.tick)) each: p is not certified this far past K(m − 1) ≥ 2^\(bits)\(range); give fewer nodes or a lower rate",
                            argument: "nodes")
                    }
                    let birthday = collision.probability
                    collision = figures
                    notes[0] =
                        "node ids random, counters started at random: two of the \(nodes) live nodes mint a common id only with the same \(node.name) (1 in 2^\(node.bits)) and counters within \(m - BigInt(1)) of each other around their 2^\(bits) ring, where both pass one counter value in one \(tickText(node.tick)) ((2m − 1)/2^\(bits) at m = \(m) ids a \(tickText(node.tick)) each). This takes every node at the same rate: counters of nodes at different rates drift apart by the difference every \(tickText(node.tick)) and meet within 2^\(bits)/difference of them, so for long-lived nodes at unequal rates p is at most the chance that two share a \(node.name), \(birthday)."
                    if digits < Birthday.significantDigits {
                        notes.append(
                            "p to \(digits) digits: with \(nodes) nodes at \(m) ids a \(tickText(node.tick)), K(m − 1) ≥ 2^\(bits) and the one-ring formula is bounded, not exact (docs/math.md)."
                        )
                    }
                }
            case .eachTickAtRandom(let bits):
                // Two nodes with one value, both minting in a tick, meet in it with probability
                // (2m − 1)/2^bits; below one id a tick each, both mint in it with probability about λ².
                let (rn, rd) = (
                    rate.perSecond.numerator * BigInt(node.tick.numerator), rate.perSecond.denominator * BigInt(node.tick.denominator)
                )
                let lambda = Swift.min(1, ScientificDecimal.exact(numerator: rn, denominator: rd, significantDigits: 17).doubleValue)
                let meet = ScientificDecimal.exact(
                    numerator: m * BigInt(2) - BigInt(1), denominator: BigInt.power(2, bits), significantDigits: 17
                ).doubleValue
                let overlap = Swift.min(1, meet) * lambda * lambda
                let seconds = Double(node.tick.numerator) / Double(node.tick.denominator) / overlap
                let when = seconds.isFinite ? "about every \(String(format: "%.3g", seconds)) s" : "practically never"
                notes[0] +=
                    " \(scheme.name) draws its \(bits)-bit counter's start afresh every \(tickText(node.tick)): two nodes with one \(node.name), both minting, meet in a \(tickText(node.tick)) with probability about \(String(format: "%.3g", overlap)), so at \(rate) a node \(when); p is the chance of a collision for any life longer than that."
            case .eachTickAtZero:
                break
            }
        }
        notes.append("\(scheme.name): \(scheme.notes) [\(scheme.source)]")
        let volume = Volume(count: nodes, nodes: nodes, notes: ["\(nodes) live nodes"])
        return ProbabilityAnswer(
            space: SpaceFigures(space), volume: VolumeFigures(volume), collision: collision,
            expectedDrawsToFirstCollision: Birthday.expectedDrawsToFirstCollision(space: space.size).description, notes: notes)
    }

    /// More assigned nodes than values: p = 1, and the pairs of nodes that share a value when they are
    /// spread as evenly as they can be — r values hold q + 1 nodes and the rest q, for nodes = q·values
    /// + r — so Σ C(k, 2) = r·C(q + 1, 2) + (values − r)·C(q, 2), the fewest there can be.
    static func sharedValues(nodes: BigInt, values: BigInt) -> CollisionFigures {
        let (q, r) = (nodes / values, nodes % values)
        func pairs(_ k: BigInt) -> BigInt { k * (k - BigInt(1)) / BigInt(2) }
        let shared = r * pairs(q + BigInt(1)) + (values - r) * pairs(q)
        return CollisionFigures(
            probability: .one(significantDigits: Birthday.significantDigits), complement: .zero,
            expected: ScientificDecimal.exact(numerator: shared, denominator: BigInt(1), significantDigits: Birthday.significantDigits),
            approx: Birthday.doubleApproximation(space: values, count: nodes, scopes: BigInt(1)))
    }

    package static func tickText(_ t: (numerator: Int, denominator: Int)) -> String {
        switch (t.numerator, t.denominator) {
        case (1, 1): "second"
        case (1, 1000): "millisecond"
        case (1, 100): "10 ms"
        case (1, 10_000_000): "100 ns tick"
        default: "\(t.numerator)/\(t.denominator) s"
        }
    }
}
