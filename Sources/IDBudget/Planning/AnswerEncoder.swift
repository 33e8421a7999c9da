import Foundation

/// idbudget's JSON writer: what Foundation's `JSONEncoder` writes with `.convertToSnakeCase` and
/// `[.sortedKeys, .withoutEscapingSlashes]` (and `.prettyPrinted` when `pretty`), byte for byte, at a
/// fraction of its cost.
///
/// Why: the server answers each new question in about a third of a millisecond of CPU, and Foundation's
/// encoder took two fifths of that (a key conversion per key per answer, boxed containers, generic
/// dispatch). This writer builds the same tree (objects, arrays, scalars) with reference-typed
/// containers and writes it once: keys converted to snake_case by Foundation's rule (a word starts at
/// each upper-case letter; a run of capitals is one word, its last letter starting the next word when
/// a lower-case letter follows), members sorted by their UTF-8 bytes, two spaces an indent, `" : "`
/// between a key and its value, an empty array or object as its brackets around a blank line (as
/// Foundation writes them), doubles as their shortest round-trip `description` less a trailing `.0`.
///
/// Whatever it does not write as Foundation would — a `Date`, `Data`, `URL` or `Decimal` (Foundation
/// gives these their own forms), a non-ASCII key, a `superEncoder`, a non-finite double — makes
/// ``text(_:pretty:)`` return nil, and the caller writes that answer with Foundation instead: the
/// output is Foundation's in every case. `AnswerEncoderTests` holds the two byte-identical on every
/// answer the CLI prints.
enum AnswerEncoder {
    /// The JSON of `value`, or nil when it holds something only Foundation writes as Foundation does.
    static func text(_ value: some Encodable, pretty: Bool) -> String? {
        let root = TreeEncoder(unsupported: Flag())
        guard let tree = try? root.box(value), !root.unsupported.raised else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(2048)
        write(tree, pretty: pretty, depth: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: The tree

    enum Value {
        /// `null`, `true`, `false` or a number: written as it is.
        case literal(String)
        case string(String)
        case array(ArrayNode)
        case object(ObjectNode)
    }

    final class ArrayNode {
        var items: [Value] = []
    }

    /// Members in the order they were encoded (a key encoded twice keeps its last value, as in
    /// Foundation); sorted when written. An array, not a dictionary: no hashing on the hot path.
    final class ObjectNode {
        var members: [(key: String, value: Value)] = []

        func set(_ key: String, _ value: Value) { members.append((key, value)) }
    }

    /// Raised by anything this writer would not write as Foundation does.
    final class Flag {
        var raised = false
    }

    // MARK: Writing

    static func write(_ value: Value, pretty: Bool, depth: Int, into out: inout [UInt8]) {
        switch value {
        case .literal(let text): out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let node):
            out.append(UInt8(ascii: "["))
            if pretty { out.append(UInt8(ascii: "\n")) }
            for (i, item) in node.items.enumerated() {
                if i > 0 { separate(pretty: pretty, into: &out) }
                if pretty { indent(depth + 1, into: &out) }
                write(item, pretty: pretty, depth: depth + 1, into: &out)
            }
            close(UInt8(ascii: "]"), pretty: pretty, depth: depth, into: &out)
        case .object(let node):
            out.append(UInt8(ascii: "{"))
            if pretty { out.append(UInt8(ascii: "\n")) }
            // Sorted by key, stably: of a key's values, the last encoded is written.
            let sorted = node.members.enumerated().sorted {
                $0.element.key == $1.element.key
                    ? $0.offset < $1.offset : $0.element.key.utf8.lexicographicallyPrecedes($1.element.key.utf8)
            }
            var first = true
            for (i, member) in sorted.enumerated() where i + 1 == sorted.count || sorted[i + 1].element.key != member.element.key {
                if !first { separate(pretty: pretty, into: &out) }
                first = false
                if pretty { indent(depth + 1, into: &out) }
                writeString(member.element.key, into: &out)
                if pretty { out.append(contentsOf: " : ".utf8) } else { out.append(UInt8(ascii: ":")) }
                write(member.element.value, pretty: pretty, depth: depth + 1, into: &out)
            }
            close(UInt8(ascii: "}"), pretty: pretty, depth: depth, into: &out)
        }
    }

    static func separate(pretty: Bool, into out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        if pretty { out.append(UInt8(ascii: "\n")) }
    }

    static func close(_ bracket: UInt8, pretty: Bool, depth: Int, into out: inout [UInt8]) {
        if pretty {
            out.append(UInt8(ascii: "\n"))
            indent(depth, into: &out)
        }
        out.append(bracket)
    }

    static func indent(_ depth: Int, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// A JSON string as Foundation writes it: `"` and `\` escaped, the C0 controls as `\b \t \n \f \r`
    /// or `\u00xx` (lower-case hex), everything else — `/` and non-ASCII included — as it is.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Keys

    /// `key` in snake_case by Foundation's `convertToSnakeCase` rule, for ASCII keys; nil for others.
    static func snakeCase(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        guard !bytes.isEmpty else { return key }
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isUpper(_ b: UInt8) -> Bool { b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") }
        func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
        guard bytes.contains(where: isUpper) else { return key }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = bytes[min(searchStart, bytes.count)...].firstIndex(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = bytes[upper...].firstIndex(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<bytes.count)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + words.count)
        for (i, word) in words.enumerated() {
            if i > 0 { out.append(UInt8(ascii: "_")) }
            for b in bytes[word] { out.append(isUpper(b) ? b + 32 : b) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A `[String: V]` encodes its keys as they are (Foundation converts a keyed container's keys, not a
/// dictionary's).
private protocol StringKeyedDictionary {
    func boxMembers(with encoder: AnswerEncoder.TreeEncoder) throws -> AnswerEncoder.ObjectNode
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    fileprivate func boxMembers(with encoder: AnswerEncoder.TreeEncoder) throws -> AnswerEncoder.ObjectNode {
        let node = AnswerEncoder.ObjectNode()
        for (key, value) in self { node.set(key, try encoder.box(value)) }
        return node
    }
}

extension AnswerEncoder {
    /// An `Encoder` whose value is one node of the tree.
    final class TreeEncoder: Encoder {
        let codingPath: [any CodingKey] = []
        let userInfo: [CodingUserInfoKey: Any] = [:]
        let unsupported: Flag
        var value: Value?

        init(unsupported: Flag) { self.unsupported = unsupported }

        /// The node `value` encodes to.
        func box<T: Encodable>(_ value: T) throws -> Value {
            // The common types by their metatype first: a dynamic cast per value was most of the cost.
            // (T is the type compared, so the bit cast is an identity.)
            if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
            if T.self == Int.self { return .literal(String(unsafeBitCast(value, to: Int.self))) }
            switch value {
            case let v as String: return .string(v)
            case let v as Bool: return .literal(v ? "true" : "false")
            case let v as Int: return .literal(String(v))
            case let v as Double: return number(v.isFinite, v.description)
            case let v as Float: return number(v.isFinite, v.description)
            case let v as any FixedWidthInteger where v.bitWidth <= 64: return .literal(String(describing: v))
            case is Date, is Data, is URL, is Decimal:
                unsupported.raised = true
                return .literal("null")
            case let v as any StringKeyedDictionary: return .object(try v.boxMembers(with: self))
            default:
                let child = TreeEncoder(unsupported: unsupported)
                try value.encode(to: child)
                return child.value ?? .object(ObjectNode())
            }
        }

        /// A double or float as Foundation writes it: its shortest round-trip text less a trailing `.0`.
        func number(_ finite: Bool, _ description: String) -> Value {
            guard finite else {
                unsupported.raised = true
                return .literal("null")
            }
            return .literal(description.hasSuffix(".0") ? String(description.dropLast(2)) : description)
        }

        func key(_ key: some CodingKey) -> String {
            guard let converted = AnswerEncoder.snakeCase(key.stringValue) else {
                unsupported.raised = true
                return key.stringValue
            }
            return converted
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let node: ObjectNode
            if case .object(let existing)? = value {
                node = existing
            } else {
                node = ObjectNode()
                value = .object(node)
            }
            return KeyedEncodingContainer(Keyed<Key>(encoder: self, node: node))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let node: ArrayNode
            if case .array(let existing)? = value {
                node = existing
            } else {
                node = ArrayNode()
                value = .array(node)
            }
            return Unkeyed(encoder: self, node: node)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: TreeEncoder
        let node: ObjectNode
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { node.set(encoder.key(key), .literal("null")) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.set(encoder.key(key), try encoder.box(value))
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Float, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { node.set(encoder.key(key), try encoder.box(value)) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = ObjectNode()
            node.set(encoder.key(key), .object(child))
            return KeyedEncodingContainer(Keyed<NestedKey>(encoder: encoder, node: child))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = ArrayNode()
            node.set(encoder.key(key), .array(child))
            return Unkeyed(encoder: encoder, node: child)
        }
        mutating func superEncoder() -> any Encoder { encoder.unsupportedEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.unsupportedEncoder() }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: TreeEncoder
        let node: ArrayNode
        var codingPath: [any CodingKey] { [] }
        var count: Int { node.items.count }

        mutating func encodeNil() throws { node.items.append(.literal("null")) }
        mutating func encode<T: Encodable>(_ value: T) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Bool) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: String) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Double) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Float) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Int) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Int8) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Int16) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Int32) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: Int64) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: UInt) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: UInt8) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: UInt16) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: UInt32) throws { node.items.append(try encoder.box(value)) }
        mutating func encode(_ value: UInt64) throws { node.items.append(try encoder.box(value)) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = ObjectNode()
            node.items.append(.object(child))
            return KeyedEncodingContainer(Keyed<NestedKey>(encoder: encoder, node: child))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = ArrayNode()
            node.items.append(.array(child))
            return Unkeyed(encoder: encoder, node: child)
        }
        mutating func superEncoder() -> any Encoder { encoder.unsupportedEncoder() }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { encoder.value = .literal("null") }
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Bool) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: String) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Double) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Float) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Int) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Int8) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Int16) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Int32) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: Int64) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: UInt) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: UInt8) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: UInt16) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: UInt32) throws { encoder.value = try encoder.box(value) }
        mutating func encode(_ value: UInt64) throws { encoder.value = try encoder.box(value) }
    }
}

extension AnswerEncoder.TreeEncoder {
    /// An encoder whose output is thrown away, the answer marked for Foundation to write.
    func unsupportedEncoder() -> any Encoder {
        unsupported.raised = true
        return AnswerEncoder.TreeEncoder(unsupported: unsupported)
    }
}
