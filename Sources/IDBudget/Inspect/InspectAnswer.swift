import Foundation

/// `idbudget inspect`: one id, the formats it is valid in with their fields, and why the others refuse
/// it (see `IDFormat.inspect(_:as:)`). The CLI writes one per line with `--format json`.
public struct InspectAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "inspect"
    public let id: String
    /// Valid in at least one of the formats asked.
    public let valid: Bool
    public let readings: [IDReading]
    public let rejections: [IDRejection]

    public init(_ inspected: InspectedID) {
        id = inspected.id
        valid = inspected.isValid
        readings = inspected.readings
        rejections = inspected.rejections
    }

    /// Inspects `id` in `formats` (all by default).
    public init(inspecting id: String, as formats: [InspectableFormat] = InspectableFormat.allCases) {
        self.init(IDFormat.inspect(id, as: formats))
    }
}

extension Answer {
    /// This answer as one line of idbudget's JSON (for streams: one answer a line).
    public func jsonLine() throws -> String {
        if let text = AnswerEncoder.text(self, pretty: false) { return text }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
