import IDBudget
import Precise
let d = BigInt.power(62, 22)
let n = BigInt(315_360_000_000_000)
print(try Birthday.probability(space: d, count: n))
print(Birthday.expectedCollisions(space: d, count: n))
print(Birthday.doubleApproximation(space: d, count: n))
print(try Birthday.probability(space: BigInt(365), count: BigInt(23)))
print(try Birthday.probability(space: BigInt(2), count: BigInt(2)))
print(try Birthday.probability(space: BigInt.power(2, 65536), count: BigInt(2)))
print(try Birthday.probability(space: BigInt.power(2,128), count: BigInt.power(2,64)))
print(try Birthday.probability(space: BigInt.power(10,6), count: BigInt.power(10,5)))
print(try Birthday.probability(space: BigInt.power(10,40), count: BigInt.power(10,40)))
