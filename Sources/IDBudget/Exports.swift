// IDBudget's public API speaks in BigInt (Precise) and Alphabet (IDTokens): re-exported so that
// `import IDBudget` is all a package depending on the IDBudget product needs.
@_exported import IDTokens
@_exported import Precise
