import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { Analytics, Envelope, Evm, RawAmount, Trade, Validation } from "../src/index.js"
import { decodeFailure, publicKey, u64 } from "./arbitraries.js"

const decode = Schema.decodeUnknownEither(RawAmount.RawAmount)
const encode = Schema.encodeEither(RawAmount.RawAmount)
const decodeQuote = Validation.decodeRequest(Trade.QuoteRequest, "trade.quote")

const broken = fc.oneof(
  u64.map((n) => `-${n === 0n ? 1n : n}`),
  fc.tuple(u64, fc.stringMatching(/^[0-9]{1,6}$/)).map(([n, f]) => `${n}.${f}`),
  fc.tuple(u64, fc.nat(30)).map(([n, e]) => `${n}e${e}`),
  fc.tuple(u64, fc.nat(30)).map(([n, e]) => `${n}E+${e}`),
  u64.map((n) => `+${n}`),
  u64.chain((n) => fc.constantFrom(` ${n}`, `${n} `, `${n}\n`, `\t${n}`)),
  fc.tuple(u64, fc.integer({ min: 1, max: 3 })).map(([n, z]) => `${"0".repeat(z)}${n}`),
  fc.bigInt({ min: RawAmount.maxU64 + 1n, max: 2n ** 80n }).map(String),
  u64.map((n) => `0x${n.toString(16)}`),
  fc.constantFrom("", "1_000", "1,000", "١٢٣", "Infinity", "NaN")
)

describe("RawAmount", () => {
  it.prop("every u64 round-trips: decode ∘ encode and encode ∘ decode are identities", [u64], ([n]) => {
    const text = n.toString()
    assert.deepStrictEqual(decode(text), Either.right(n))
    assert.deepStrictEqual(encode(n), Either.right(text))
  })

  it("the bounds", () => {
    assert.deepStrictEqual(decode("0"), Either.right(0n))
    assert.deepStrictEqual(decode("18446744073709551615"), Either.right(2n ** 64n - 1n))
    assert.isTrue(Either.isLeft(decode("18446744073709551616")))
    assert.isTrue(Either.isLeft(encode(2n ** 64n)))
    assert.isTrue(Either.isLeft(encode(-1n)))
  })

  it.prop(
    "negatives, fractions, exponents, a leading +, whitespace, leading zeros and > 2^64-1 are rejected",
    [broken],
    ([text]) => {
      assert.isFalse(RawAmount.isRawAmountString(text))
      assert.isTrue(Either.isLeft(decode(text)))
    }
  )

  it.prop(
    "a broken amount in a request names the field and the rule",
    [broken, publicKey, publicKey],
    ([amount, a, b]) => {
      const error = decodeFailure(decodeQuote({ inputMint: a, outputMint: b, amount }))
      assert.strictEqual(error?.field, "amount")
      assert.strictEqual(error?.rule, RawAmount.rule)
    }
  )

  it.prop(
    "lifetime fees above 2^53 keep their precision",
    [fc.bigInt({ min: 2n ** 53n, max: RawAmount.maxU64 })],
    ([n]) => {
      assert.deepStrictEqual(Schema.decodeUnknownEither(Analytics.LifetimeFees)(n.toString()), Either.right(n))
    }
  )

  it.prop(
    "BigUint (wei) takes any uint256, canonical only",
    [fc.bigInt({ min: 0n, max: RawAmount.maxU256 })],
    ([n]) => {
      const schema = RawAmount.BigUint
      assert.deepStrictEqual(Schema.decodeUnknownEither(schema)(n.toString()), Either.right(n))
      assert.deepStrictEqual(Schema.encodeEither(schema)(n), Either.right(n.toString()))
      assert.isTrue(Either.isLeft(Schema.decodeUnknownEither(schema)(`0${n}`)))
      assert.isTrue(Either.isLeft(Schema.decodeUnknownEither(schema)(`-${n + 1n}`)))
    }
  )

  it.prop("BigUint refuses what does not fit in 256 bits", [
    fc.bigInt({ min: RawAmount.maxU256 + 1n, max: 2n ** 300n })
  ], ([n]) => {
    assert.isTrue(Either.isLeft(Schema.decodeUnknownEither(RawAmount.BigUint)(n.toString())))
    assert.isTrue(Either.isLeft(Schema.encodeEither(RawAmount.BigUint)(n)))
  })

  it("a hostile million-digit amount is refused by its length, before BigInt", () => {
    const huge = "9".repeat(1_000_000)
    const original = globalThis.BigInt
    let parsed = 0
    // count BigInt calls on long strings: none may happen
    globalThis.BigInt = Object.assign((value: string | number | bigint | boolean) => {
      if (typeof value === "string" && value.length > 100) parsed++
      return original(value)
    }, original)
    try {
      assert.isTrue(Either.isLeft(Schema.decodeUnknownEither(RawAmount.BigUint)(huge)))
      assert.isTrue(Either.isLeft(Schema.decodeUnknownEither(RawAmount.RawAmount)(huge)))
      assert.isTrue(Either.isLeft(Schema.decodeUnknownEither(Evm.CreationFee)({ creationFeeWei: huge })))
      // a response goes through the compiled decoder: the same rule
      const body = JSON.stringify({ success: true, response: { creationFeeWei: huge } })
      const decoded = Envelope.decode(Envelope.Success(Evm.CreationFee), body, {
        status: 200,
        operation: "evm.creationFee"
      })
      assert.isTrue(Either.isLeft(decoded))
    } finally {
      globalThis.BigInt = original
    }
    assert.strictEqual(parsed, 0)
  })

  it("format places the decimal point", () => {
    assert.strictEqual(RawAmount.format(1_500_000_000n, 9), "1.5")
    assert.strictEqual(RawAmount.format(1n, 9), "0.000000001")
    assert.strictEqual(RawAmount.format(2_000_000_000n, 9), "2")
    assert.strictEqual(RawAmount.format(-1_500_000n, 6), "-1.5")
    assert.strictEqual(RawAmount.format(42n, 0), "42")
  })
})
