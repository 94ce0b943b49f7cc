import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Schema } from "effect"
import { BasisPoints, Claims, PublicKey, RawAmount, Validation } from "../src/index.js"
import { decodeFailure, notPublicKey, publicKey, u64 } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"

type Encoded = typeof Claims.ClaimPlanRequest.Encoded

const decode = Validation.decodeRequest(Claims.ClaimPlanRequest, "claims.createPlan")

const feeLimit = fc.record({
  asset: fc.record({ mint: publicKey, tokenProgram: publicKey }),
  basisPoints: fc.integer({ min: 0, max: 10_000 }),
  maximumFeeRaw: u64.map(String)
})

const source: fc.Arbitrary<typeof Claims.ClaimSource.Encoded> = fc.oneof(
  fc.constant({ kind: "position" as const }),
  fc.constant({ kind: "pair" as const }),
  fc.record({
    kind: fc.constant("pool" as const),
    protocol: fc.constantFrom("dbc" as const, "damm_v2" as const),
    pool: publicKey
  }),
  fc.record({ kind: fc.constant("holding" as const), authority: publicKey })
)

const distinctBy = <A>(items: ReadonlyArray<A>, key: (item: A) => string): Array<A> =>
  items.filter((item, i) => items.findIndex((other) => key(other) === key(item)) === i)

/** Absent, null, or a value. */
const optionalNullable = <A>(arb: fc.Arbitrary<A>) => fc.option(fc.option(arb), { nil: undefined })

const validRequest: fc.Arbitrary<Encoded> = fc.record({
  feeClaimer: publicKey,
  tokenMint: publicKey,
  quoteMint: optionalNullable(publicKey),
  source: optionalNullable(source),
  transactionFormat: optionalNullable(fc.constantFrom("v0" as const, "v1" as const)),
  feeLimits: optionalNullable(fc.array(feeLimit, { maxLength: 4 })),
  additionalLookupTables: optionalNullable(fc.array(publicKey, { maxLength: 8 }))
}).map((request) => {
  const out: { -readonly [K in keyof Encoded]: Encoded[K] } = {
    feeClaimer: request.feeClaimer,
    tokenMint: request.tokenMint
  }
  if (request.quoteMint !== undefined) out.quoteMint = request.quoteMint
  if (request.source !== undefined) out.source = request.source
  if (request.transactionFormat !== undefined) out.transactionFormat = request.transactionFormat
  // the options fit together (claimPlanIssue): fee limits on distinct assets, the quote mint's
  // only when it is given; distinct lookup tables, none with v1
  const quoteMint = request.quoteMint ?? undefined
  if (request.feeLimits !== undefined) {
    out.feeLimits = request.feeLimits === null ? null : distinctBy(
      request.feeLimits.map((limit) =>
        quoteMint === undefined ? limit : { ...limit, asset: { ...limit.asset, mint: quoteMint } }
      ),
      (limit) => limit.asset.mint
    )
  }
  if (request.additionalLookupTables !== undefined) {
    out.additionalLookupTables = request.additionalLookupTables === null || request.transactionFormat === "v1"
      ? null
      : distinctBy(request.additionalLookupTables, (table) => table)
  }
  return out
}).filter((request) => request.quoteMint !== request.tokenMint)

const invalid = (encoded: unknown, field: string, rule: string) =>
  assertInvalid(Claims.ClaimPlanRequest, { encoded }, field, rule)

describe("Claims.ClaimPlanRequest", () => {
  it.prop("every valid combination is accepted and round-trips", [validRequest], ([request]) => {
    const decoded = assertValid(Claims.ClaimPlanRequest, request)
    assert.deepStrictEqual(Schema.encodeSync(Claims.ClaimPlanRequest)(decoded), request)
    assert.deepStrictEqual(
      decoded.feeLimits?.map((limit) => limit.maximumFeeRaw),
      request.feeLimits?.map((limit) => BigInt(limit.maximumFeeRaw))
    )
  })

  it.prop(
    "feeClaimer and tokenMint are required and must be public keys",
    [validRequest, notPublicKey],
    ([request, bad]) => {
      const { feeClaimer: _, ...noClaimer } = request
      const { tokenMint: __, ...noMint } = request
      invalid(noClaimer, "feeClaimer", "is missing")
      invalid(noMint, "tokenMint", "is missing")
      invalid({ ...request, feeClaimer: bad }, "feeClaimer", PublicKey.rule)
      invalid({ ...request, tokenMint: bad }, "tokenMint", PublicKey.rule)
      invalid({ ...request, quoteMint: bad }, "quoteMint", PublicKey.rule)
    }
  )

  it.prop("more than 4 fee limits, or more than 8 lookup tables, is rejected", [
    validRequest,
    fc.array(feeLimit, { minLength: 5, maxLength: 8 }),
    fc.array(publicKey, { minLength: 9, maxLength: 12 })
  ], ([request, limits, tables]) => {
    invalid({ ...request, feeLimits: limits }, "feeLimits", "must have at most 4 entries")
    invalid({ ...request, additionalLookupTables: tables }, "additionalLookupTables", "must have at most 8 entries")
  })

  it.prop("a broken fee limit names its index and field", [
    validRequest,
    fc.array(feeLimit, { minLength: 1, maxLength: 4 }).chain((limits) =>
      fc.tuple(fc.constant(limits), fc.nat(limits.length - 1))
    ),
    fc.oneof(fc.integer({ min: 10_001 }), fc.integer({ max: -1 }), fc.constant(1.5)),
    fc.constantFrom("-1", "1.0", "18446744073709551616", "01", "1e3", "+1", " 1"),
    notPublicKey
  ], ([request, [limits, i], bps, raw, key]) => {
    const at = (patch: Partial<typeof limits[number]>) => limits.map((l, j) => (j === i ? { ...l, ...patch } : l))
    invalid({ ...request, feeLimits: at({ basisPoints: bps }) }, `feeLimits[${i}].basisPoints`, BasisPoints.rule)
    invalid({ ...request, feeLimits: at({ maximumFeeRaw: raw }) }, `feeLimits[${i}].maximumFeeRaw`, RawAmount.rule)
    invalid(
      { ...request, feeLimits: at({ asset: { mint: key, tokenProgram: limits[i]!.asset.tokenProgram } }) },
      `feeLimits[${i}].asset.mint`,
      PublicKey.rule
    )
    invalid(
      { ...request, feeLimits: at({ asset: { mint: limits[i]!.asset.mint, tokenProgram: key } }) },
      `feeLimits[${i}].asset.tokenProgram`,
      PublicKey.rule
    )
  })

  it.prop(
    "a source variant without its fields, or with a bad key, is rejected",
    [validRequest, notPublicKey],
    ([request, bad]) => {
      invalid({ ...request, source: { kind: "pool", pool: request.tokenMint } }, "source.protocol", "is missing")
      invalid({ ...request, source: { kind: "pool", protocol: "dbc" } }, "source.pool", "is missing")
      invalid({ ...request, source: { kind: "pool", protocol: "dbc", pool: bad } }, "source.pool", PublicKey.rule)
      invalid({ ...request, source: { kind: "holding" } }, "source.authority", "is missing")
      invalid({ ...request, source: { kind: "holding", authority: bad } }, "source.authority", PublicKey.rule)
    }
  )

  it("an unknown source kind, pool protocol or transaction format is rejected at its field", () => {
    const base = { feeClaimer: "11111111111111111111111111111111", tokenMint: "11111111111111111111111111111112" }
    const field = (input: unknown) => decodeFailure(decode(input))?.field
    assert.strictEqual(field({ ...base, source: { kind: "vault" } }), "source.kind")
    assert.strictEqual(
      field({ ...base, source: { kind: "pool", protocol: "damm_v1", pool: base.tokenMint } }),
      "source.protocol"
    )
    assert.strictEqual(field({ ...base, transactionFormat: "legacy" }), "transactionFormat")
    assert.strictEqual(
      decodeFailure(decode({ ...base, transactionFormat: "legacy" }))?.rule,
      "Expected \"v0\" | \"v1\", actual \"legacy\""
    )
    assert.strictEqual(
      decodeFailure(decode({ ...base, source: { kind: "pool", protocol: "damm_v1", pool: base.tokenMint } }))?.rule,
      "Expected \"dbc\" | \"damm_v2\", actual \"damm_v1\""
    )
    assert.strictEqual(field({ ...base, feeLimits: "none" }), "feeLimits")
    assert.strictEqual(field({ ...base, additionalLookupTables: [base.tokenMint, "x"] }), "additionalLookupTables[1]")
  })

  it.prop("options that contradict each other are rejected at the field at fault", [
    validRequest,
    feeLimit,
    fc.array(publicKey, { minLength: 1, maxLength: 7 }).chain((tables) =>
      fc.tuple(fc.constant(tables), fc.nat(tables.length - 1))
    ),
    publicKey
  ], ([request, limit, [tables, i], otherMint]) => {
    invalid({ ...request, quoteMint: request.tokenMint }, "quoteMint", Claims.planRules.quoteMint)
    const quoteMint = request.quoteMint ?? otherMint
    fc.pre(quoteMint !== request.tokenMint && quoteMint !== limit.asset.mint)
    invalid(
      { ...request, quoteMint, feeLimits: [{ ...limit, asset: { ...limit.asset, mint: quoteMint } }, limit] },
      "feeLimits[1].asset.mint",
      Claims.planRules.feeLimitAsset
    )
    const { quoteMint: _, ...noQuote } = request
    invalid(
      { ...noQuote, feeLimits: [limit, { ...limit, basisPoints: 0 }] },
      "feeLimits[1].asset",
      Claims.planRules.duplicateFeeLimit
    )
    const withDuplicate = [...tables.slice(0, i + 1), tables[i]!, ...tables.slice(i + 1)]
    invalid(
      { ...request, transactionFormat: "v0", additionalLookupTables: withDuplicate },
      `additionalLookupTables[${i + 1}]`,
      Claims.planRules.duplicateLookupTable
    )
    invalid(
      { ...request, transactionFormat: "v1", additionalLookupTables: tables },
      "additionalLookupTables",
      Claims.planRules.lookupTablesFormat
    )
  })

  it.prop(
    "the options are accepted together when they agree",
    [validRequest, feeLimit, publicKey],
    ([request, limit, quoteMint]) => {
      fc.pre(quoteMint !== request.tokenMint)
      const decoded = assertValid(Claims.ClaimPlanRequest, {
        ...request,
        quoteMint,
        transactionFormat: "v0",
        feeLimits: [{ ...limit, asset: { ...limit.asset, mint: quoteMint } }]
      })
      assert.strictEqual(decoded.feeLimits?.[0]?.asset.mint, quoteMint)
    }
  )
})
