import IDBudget
import Precise
let b = try Budget(parsing: "1e-11")
print(try Birthday.minimumLength(alphabetSize: 62, count: BigInt(315_360_000_000_000), budget: b))
print(try Birthday.capacity(space: BigInt.power(62, 22), budget: b))
print(try Birthday.capacity(space: BigInt(1000000), budget: try Budget(parsing: "1e-6")))
print(try Birthday.capacity(space: BigInt(1000), budget: try Budget(parsing: "0.999999")))
print(try Birthday.capacity(space: BigInt.power(2, 65536), budget: try Budget(parsing: "1e-18")).bitWidth)
for d in [BigInt(365), BigInt(10_000_000), BigInt.power(62,22)] { print(Birthday.expectedDrawsToFirstCollision(space: d)) }
