// IDBudget's public API speaks in BigInt (Precise) and in alphabets and schemes (IDFormats):
// re-exported so that `import IDBudget` is all a package depending on the IDBudget product needs.
@_exported import IDFormats
@_exported import Precise
