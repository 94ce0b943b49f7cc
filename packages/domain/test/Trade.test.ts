import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { BasisPoints, Envelope, PublicKey, RawAmount, Trade } from "../src/index.js"
import { notPublicKey, publicKey, quoteJson, u64 } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"
import { endpoint } from "./endpoints.js"

type QueryEncoded = typeof Trade.QuoteRequest.Encoded
type Query = typeof Trade.QuoteRequest.Type

const query: fc.Arbitrary<{ encoded: QueryEncoded; type: Query }> = fc.record({
  inputMint: publicKey,
  outputMint: publicKey,
  amount: u64,
  mode: fc.constantFrom("absent" as const, "auto" as const, "manual" as const),
  bps: fc.integer({ min: 0, max: 10_000 })
}).map(({ amount, bps, inputMint, mode, outputMint }) => ({
  encoded: {
    inputMint,
    outputMint,
    amount: amount.toString(),
    ...(mode === "absent" ? {} : { slippageMode: mode }),
    ...(mode === "manual" ? { slippageBps: String(bps) } : {})
  },
  type: {
    inputMint,
    outputMint,
    amount,
    ...(mode === "absent" ? {} : { slippageMode: mode }),
    ...(mode === "manual" ? { slippageBps: bps } : {})
  }
}))

describe("Trade.QuoteRequest", () => {
  it.prop(
    "valid queries are accepted; slippageBps decodes to a number, amount to a bigint",
    [query],
    ([{ encoded, type }]) => {
      assert.deepStrictEqual(assertValid(Trade.QuoteRequest, encoded), type)
      assert.deepStrictEqual(Schema.encodeSync(Trade.QuoteRequest)(type), encoded)
    }
  )

  it.prop("manual without slippageBps is rejected", [query], ([{ encoded, type }]) => {
    const { slippageBps: _, ...e } = encoded
    const { slippageBps: __, ...t } = type
    assertInvalid(
      Trade.QuoteRequest,
      { encoded: { ...e, slippageMode: "manual" }, type: { ...t, slippageMode: "manual" } },
      "slippageBps",
      Trade.rules.slippageRequired
    )
  })

  it.prop("slippageBps in auto mode (or no mode) is accepted, as the service accepts it", [
    query,
    fc.integer({ min: 0, max: 10_000 }),
    fc.constantFrom("auto" as const, undefined)
  ], ([{ encoded, type }, bps, mode]) => {
    const { slippageMode: _, ...e } = encoded
    const { slippageMode: __, ...t } = type
    const withMode = mode === undefined ? {} : { slippageMode: mode }
    assert.deepStrictEqual(
      assertValid(Trade.QuoteRequest, { ...e, ...withMode, slippageBps: String(bps) }),
      { ...t, ...withMode, slippageBps: bps }
    )
  })

  it.prop("slippageBps outside 0..10000 is rejected", [
    query,
    fc.oneof(fc.integer({ min: 10_001, max: 1e9 }), fc.integer({ min: -1e9, max: -1 }), fc.constant(0.5))
  ], ([{ encoded, type }, bps]) => {
    assertInvalid(
      Trade.QuoteRequest,
      {
        encoded: { ...encoded, slippageMode: "manual", slippageBps: String(bps) },
        type: { ...type, slippageMode: "manual", slippageBps: bps }
      },
      "slippageBps",
      BasisPoints.rule
    )
  })

  it.prop("mints must be public keys and amount a u64", [query, notPublicKey], ([{ encoded, type }, bad]) => {
    assertInvalid(
      Trade.QuoteRequest,
      { encoded: { ...encoded, inputMint: bad }, type: { ...type, inputMint: bad } },
      "inputMint",
      PublicKey.rule
    )
    assertInvalid(
      Trade.QuoteRequest,
      { encoded: { ...encoded, outputMint: bad }, type: { ...type, outputMint: bad } },
      "outputMint",
      PublicKey.rule
    )
    assertInvalid(
      Trade.QuoteRequest,
      { encoded: { ...encoded, amount: "-5" }, type: { ...type, amount: -5n } },
      "amount",
      RawAmount.rule
    )
    assertInvalid(
      Trade.QuoteRequest,
      { encoded: { ...encoded, amount: "18446744073709551616" }, type: { ...type, amount: 2n ** 64n } },
      "amount",
      RawAmount.rule
    )
  })
})

// ---------------------------------------------------------------------------
// quotes keep every field they arrived with
// ---------------------------------------------------------------------------

const quoteSchema = endpoint("trade", "quote").successSchema
const swapSchema = endpoint("trade", "swap").successSchema
const context = { status: 200, operation: "trade.quote" }

describe("Trade.TradeQuote", () => {
  it.prop("a quote with unknown fields (nested too) re-encodes for the swap body to the same JSON value", [
    quoteJson,
    publicKey
  ], ([quote, user]) => {
    const text = JSON.stringify({ success: true, response: quote })
    const decoded = Envelope.decode(quoteSchema, text, context)
    if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
    assert.strictEqual(decoded.right.inAmount, BigInt(quote.inAmount))
    const body = Schema.encodeSync(Trade.SwapRequest)({ quoteResponse: decoded.right, userPublicKey: user })
    assert.deepStrictEqual(JSON.parse(JSON.stringify(body)), {
      quoteResponse: JSON.parse(JSON.stringify(quote)),
      userPublicKey: user
    })
  })

  it.prop("encode ∘ decode is the identity on quotes", [quoteJson], ([quote]) => {
    const json = JSON.parse(JSON.stringify(quote))
    const decoded = Schema.decodeUnknownSync(Trade.TradeQuote)(json)
    assert.deepStrictEqual(Schema.encodeSync(Trade.TradeQuote)(decoded), json)
  })

  it.prop("a known field of the wrong type is still rejected", [
    quoteJson,
    fc.constantFrom("inAmount", "outAmount", "minOutAmount", "otherAmountThreshold")
  ], ([quote, field]) => {
    const result = Envelope.decode(
      quoteSchema,
      JSON.stringify({ success: true, response: { ...quote, [field]: "1.5" } }),
      context
    )
    assert.isTrue(Either.isLeft(result) && result.left._tag === "UnexpectedResponse")
  })

  it.prop("the swap request checks the user key", [quoteJson, notPublicKey], ([quote, bad]) => {
    assertInvalid(
      Trade.SwapRequest,
      { encoded: { quoteResponse: quote, userPublicKey: bad } },
      "userPublicKey",
      PublicKey.rule
    )
  })

  it("a swap result decodes through its endpoint schema", () => {
    const response = {
      swapTransaction: "3yZe7d",
      computeUnitLimit: 200_000,
      lastValidBlockHeight: 1000,
      prioritizationFeeLamports: 5000
    }
    assert.deepStrictEqual(
      Envelope.decode(swapSchema, JSON.stringify({ success: true, response }), context),
      Either.right(response)
    )
    const bad = { ...response, swapTransaction: "not base58!" }
    assert.isTrue(Either.isLeft(Envelope.decode(swapSchema, JSON.stringify({ success: true, response: bad }), context)))
  })
})
