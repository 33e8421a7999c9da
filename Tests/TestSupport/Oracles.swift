import Foundation
import Testing

/// Whether the Python references (Tests/Oracles, and the packages requirements.txt pins) can run
/// here: tests that ask them are skipped on a machine without them, not failed. CI sets
/// `IDBUDGET_REQUIRE_ORACLES=1`, and there a missing package fails those tests instead of hiding them.
public enum Oracles {
    /// The modules the references import (mpmath; the formats' own libraries).
    static let modules = ["mpmath", "jsonschema", "ulid", "cyksuid", "typeid", "uuid6", "epyxid", "bson", "tsidpy", "cuid2", "nanoid"]

    public static let available: Bool = {
        if ProcessInfo.processInfo.environment["IDBUDGET_REQUIRE_ORACLES"] == "1" { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import " + modules.joined(separator: ", ")]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where the Python references can (``Oracles/available``).
    public static var oracles: Self {
        .enabled(if: Oracles.available, "needs python3 with the packages of requirements.txt (pip install -r requirements.txt)")
    }
}
