import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { BasisPoints } from "../src/index.js"
import { bpsSumming, u64 } from "./arbitraries.js"

const decode = Schema.decodeUnknownEither(BasisPoints.BasisPoints)
const decodeString = Schema.decodeUnknownEither(BasisPoints.BasisPointsFromString)

describe("BasisPoints", () => {
  it.prop("integers 0..10000 are accepted", [fc.integer({ min: 0, max: 10_000 })], ([n]) => {
    assert.deepStrictEqual(decode(n), Either.right(n))
    assert.deepStrictEqual(decodeString(String(n)), Either.right(n))
    assert.strictEqual(Schema.encodeSync(BasisPoints.BasisPointsFromString)(n), String(n))
  })

  it.prop("out of range, fractional and non-finite numbers are rejected", [
    fc.oneof(
      fc.integer({ min: 10_001 }),
      fc.integer({ max: -1 }),
      fc.double({ min: 0, max: 10_000, noNaN: true }).filter((n) => !Number.isInteger(n)),
      fc.constantFrom(Number.NaN, Infinity, -Infinity)
    )
  ], ([n]) => {
    assert.isFalse(BasisPoints.isBasisPoints(n))
    assert.isTrue(Either.isLeft(decode(n)))
  })

  it.prop("the string form rejects signs, leading zeros, fractions, exponents and whitespace", [
    fc.oneof(
      fc.integer({ min: 0, max: 10_000 }).chain((n) =>
        fc.constantFrom(`+${n}`, `-${n}`, `0${n}`, `${n}.0`, ` ${n}`, `${n} `, `${n}e0`)
      ),
      fc.integer({ min: 10_001, max: 99_999 }).map(String),
      fc.constant("")
    )
  ], ([text]) => {
    assert.isTrue(Either.isLeft(decodeString(text)))
  })

  it.prop("split hands out every unit and respects the shares", [
    u64,
    fc.integer({ min: 1, max: 100 }).chain(bpsSumming)
  ], ([amount, shares]) => {
    const parts = BasisPoints.split(amount, shares)
    assert.strictEqual(parts.length, shares.length)
    assert.strictEqual(parts.reduce((a, b) => a + b, 0n), amount)
    parts.slice(1).forEach((part, i) => assert.strictEqual(part, (amount * BigInt(shares[i + 1]!)) / 10_000n))
  })
})
