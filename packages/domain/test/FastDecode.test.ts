import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { Analytics, Api, Claims, Envelope, Evm, FeeShare, Identity } from "../src/index.js"
import * as FastDecode from "../src/internal/fastDecode.js"
import { dagDependencies, encodedPlan, mutate, quoteJson } from "./arbitraries.js"
import { endpoint } from "./endpoints.js"

// The compiled decoder behind `Envelope.decode` must agree with Effect's parser: whenever
// it answers, Effect decodes the same input to an equal value (when it gives up, Effect's
// parser runs, so only acceptance needs checking). It must also actually answer for valid
// responses, or the benchmark measures the fallback.

const everySuccessSchema = Object.values(Api.Api.groups).flatMap((group) =>
  Object.values(group.endpoints).map((e) => [Api.operationName(group.identifier, e.name), e.successSchema] as const)
)

const assertAgrees = (schema: Schema.Schema.AnyNoContext, input: unknown, operation: string): boolean => {
  const fast = FastDecode.compile(schema)
  if (fast === undefined) return false
  const compiled = fast(input)
  const reference = Schema.decodeUnknownEither(schema, { errors: "first" })(input)
  if (compiled === FastDecode.FAIL) return false
  if (Either.isLeft(reference)) assert.fail(`${operation}: compiled decoder accepted what Effect rejects`)
  else assert.deepStrictEqual(compiled, reference.right, operation)
  return true
}

const envelope = (response: unknown) => ({ success: true, response })

/** Valid responses of a schema without filters, from its Schema arbitrary. */
const validOf = <A, I>(schema: Schema.Schema<A, I, never>): fc.Arbitrary<unknown> =>
  Arbitrary.make(schema).map((a) => envelope(Schema.encodeSync(schema)(a)))

const valid: ReadonlyArray<readonly [string, Schema.Schema.AnyNoContext, fc.Arbitrary<unknown>]> = [
  ["claims.positions", endpoint("claims", "positions").successSchema, validOf(Claims.ClaimablePositions)],
  ["analytics.pools", endpoint("analytics", "pools").successSchema, validOf(Analytics.Pools)],
  ["feeShare.adminList", endpoint("feeShare", "adminList").successSchema, validOf(FeeShare.AdminTokens)],
  ["identity.me", endpoint("identity", "me").successSchema, validOf(Identity.Me)],
  ["evm.indexTokenStatus", endpoint("evm", "indexTokenStatus").successSchema, validOf(Evm.IndexTokenStatuses)],
  [
    "claims.createPlan",
    endpoint("claims", "createPlan").successSchema,
    dagDependencies(6).chain((d) => fc.constantFrom("v0" as const, "v1" as const).chain((f) => encodedPlan(d, f))).map(
      envelope
    )
  ],
  ["trade.quote", endpoint("trade", "quote").successSchema, quoteJson.map(envelope)]
]

describe("compiled response decoder", () => {
  it("compiles every success schema except agentAuth.callback (a non-exclusive union)", () => {
    const skipped = everySuccessSchema.filter(([, s]) => FastDecode.compile(s) === undefined).map(([name]) => name)
    assert.deepStrictEqual(skipped, ["agentAuth.callback"])
  })

  for (const [operation, schema, arbitrary] of valid) {
    it.prop(
      `${operation}: valid responses are decoded by the compiled decoder, to Effect's value`,
      [arbitrary],
      ([input]) => {
        assert.isTrue(assertAgrees(schema, input, operation), "the compiled decoder gave up on a valid response")
      },
      { fastCheck: { numRuns: 50 } }
    )

    it.prop(`${operation}: a response with any node replaced is never accepted unless Effect accepts it`, [
      arbitrary,
      fc.array(fc.nat(), { maxLength: 7 }),
      fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom(null, "", "x", 0, -1, 1.5, "1", "18446744073709551616", [], {})
      )
    ], ([input, path, replacement]) => {
      assertAgrees(schema, mutate(input, path, replacement), operation)
    }, { fastCheck: { numRuns: 150 } })
  }

  it.prop("arbitrary JSON through every schema: the compiled decoder agrees with Effect", [
    fc.jsonValue({ maxDepth: 3 }),
    fc.boolean()
  ], ([value, wrap]) => {
    for (const [operation, schema] of everySuccessSchema) {
      assertAgrees(schema, wrap ? envelope(value) : value, operation)
    }
  })

  it("a wrong literal, a missing required field or a failing filter is refused", () => {
    const schema = endpoint("claims", "positions").successSchema
    const position = { isCustomFeeVault: true, baseMint: "m", isMigrated: false, totalClaimableLamportsUserShare: 1 }
    const fast = FastDecode.compile(schema)
    if (fast === undefined) return assert.fail("not compiled")
    assert.notStrictEqual(fast(envelope([position])), FastDecode.FAIL)
    assert.strictEqual(fast({ success: false, response: [position] }), FastDecode.FAIL)
    assert.strictEqual(fast(envelope([{ ...position, isMigrated: undefined }])), FastDecode.FAIL)
    assert.strictEqual(fast(envelope([{ ...position, customFeeVaultClaimerSide: "C" }])), FastDecode.FAIL)
    assert.strictEqual(fast(envelope({ 0: position })), FastDecode.FAIL)
    const fees = FastDecode.compile(endpoint("analytics", "lifetimeFees").successSchema)
    assert.strictEqual(fees?.(envelope("18446744073709551616")), FastDecode.FAIL)
    assert.strictEqual(fees?.(envelope("18446744073709551615")), 2n ** 64n - 1n)
  })

  it("Envelope.decode gives the same answer with or without the compiled path", () => {
    const schema = endpoint("claims", "positions").successSchema
    const text = JSON.stringify(
      envelope([{
        isCustomFeeVault: true,
        baseMint: "m",
        isMigrated: false,
        totalClaimableLamportsUserShare: 1,
        extra: 1
      }])
    )
    assert.deepStrictEqual(
      Envelope.decode(schema, text, { status: 200, operation: "claims.positions" }),
      Either.right(Schema.decodeUnknownSync(schema)(JSON.parse(text)))
    )
  })
})
