/// idbudget's version: the one place it is written. `idbudget --version` prints it, the release
/// tag is `v` followed by it, and CHANGELOG.md names it.
public enum IDBudgetVersion {
    public static let current = "0.2.0"
}
