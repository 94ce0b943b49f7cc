import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Schema } from "effect"
import { BasisPoints, FeeShare, PublicKey } from "../src/index.js"
import { bpsSumming, distinctPublicKeys, notPublicKey, publicKey } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"

type Update = typeof FeeShare.UpdateConfigRequest.Type

/** A valid update with `min..max` claimers (lookup tables given when more than 7). */
const validUpdate = (min = 1, max = 100): fc.Arbitrary<Update> =>
  distinctPublicKeys(min, max).chain((claimers) =>
    fc.record({
      baseMint: publicKey,
      payer: publicKey,
      bps: bpsSumming(claimers.length),
      tables: fc.array(publicKey, { minLength: claimers.length > 7 ? 1 : 0, maxLength: 3 }),
      withTables: fc.boolean()
    }).map(({ baseMint, bps, payer, tables, withTables }) => ({
      baseMint,
      basisPointsArray: bps,
      claimersArray: claimers,
      payer,
      ...(claimers.length > 7 || withTables ? { additionalLookupTables: tables } : {})
    }))
  )

const invalid = (request: Update, field: string, rule: string) =>
  assertInvalid(FeeShare.UpdateConfigRequest, { encoded: request, type: request }, field, rule)

describe("FeeShare.UpdateConfigRequest", () => {
  it.prop("1..100 distinct claimers whose bps sum to 10000 are accepted", [validUpdate()], ([request]) => {
    assert.deepStrictEqual(assertValid(FeeShare.UpdateConfigRequest, request), request)
  })

  it.prop("no claimer, or more than 100, is rejected", [
    validUpdate(1, 1),
    distinctPublicKeys(101, 120)
  ], ([request, many]) => {
    invalid({ ...request, claimersArray: [] }, "claimersArray", "must have 1 to 100 entries")
    invalid({ ...request, basisPointsArray: [], claimersArray: [] }, "basisPointsArray", "must have 1 to 100 entries")
    invalid(
      { ...request, basisPointsArray: many.map(() => 0), claimersArray: many, additionalLookupTables: [request.payer] },
      "basisPointsArray",
      "must have 1 to 100 entries"
    )
  }, { fastCheck: { numRuns: 20 } })

  it.prop("a repeated claimer is rejected at its second occurrence", [
    validUpdate(2, 100).chain((request) =>
      fc.tuple(fc.constant(request), fc.nat(request.claimersArray.length - 1), fc.nat(request.claimersArray.length - 1))
        .filter(([, i, j]) => i !== j)
    )
  ], ([[request, i, j]]) => {
    const claimers = [...request.claimersArray]
    claimers[Math.max(i, j)] = claimers[Math.min(i, j)]!
    invalid({ ...request, claimersArray: claimers }, `claimersArray[${Math.max(i, j)}]`, FeeShare.rules.duplicate)
  })

  it.prop("a bps outside 0..10000 or not an integer is rejected at its index", [
    validUpdate().chain((request) =>
      fc.tuple(
        fc.constant(request),
        fc.nat(request.basisPointsArray.length - 1),
        fc.oneof(fc.integer({ min: 10_001 }), fc.integer({ max: -1 }), fc.constantFrom(0.5, 9999.99, Number.NaN))
      )
    )
  ], ([[request, i, bad]]) => {
    const bps = [...request.basisPointsArray]
    bps[i] = bad
    invalid({ ...request, basisPointsArray: bps }, `basisPointsArray[${i}]`, BasisPoints.rule)
  })

  it.prop("arrays of different lengths are rejected", [
    validUpdate(1, 99).chain((request) => fc.tuple(fc.constant(request), publicKey))
  ], ([[request, extra]]) => {
    if (request.claimersArray.includes(extra)) return
    const claimers = [...request.claimersArray, extra]
    invalid(
      { ...request, claimersArray: claimers, additionalLookupTables: [extra] },
      "basisPointsArray",
      FeeShare.rules.sameLength
    )
  })

  it.prop("bps that do not sum to exactly 10000 are rejected", [
    validUpdate().chain((request) =>
      fc.tuple(
        fc.constant(request),
        fc.nat(request.basisPointsArray.length - 1),
        fc.integer({ min: -10_000, max: 10_000 }).filter((d) => d !== 0)
      )
    )
  ], ([[request, i, delta]]) => {
    const bps = [...request.basisPointsArray]
    const changed = bps[i]! + delta
    if (changed < 0 || changed > 10_000) return
    bps[i] = changed
    invalid({ ...request, basisPointsArray: bps }, "basisPointsArray", FeeShare.rules.sum)
  })

  it.prop(
    "more than 7 claimers without lookup tables (absent or empty) is rejected",
    [validUpdate(8, 100)],
    ([request]) => {
      const { additionalLookupTables: _, ...without } = request
      invalid(without, "additionalLookupTables", FeeShare.rules.lookupTables)
      invalid({ ...request, additionalLookupTables: [] }, "additionalLookupTables", FeeShare.rules.lookupTables)
    }
  )

  it.prop("up to 7 claimers need no lookup table", [validUpdate(1, 7)], ([request]) => {
    const { additionalLookupTables: _, ...without } = request
    assertValid(FeeShare.UpdateConfigRequest, without)
  })

  it.prop("every key must be a public key", [
    validUpdate().chain((request) =>
      fc.tuple(
        fc.constant(request),
        notPublicKey,
        fc.nat(request.claimersArray.length - 1),
        fc.constantFrom("baseMint", "payer", "claimersArray", "additionalLookupTables")
      )
    )
  ], ([[request, bad, i, where]]) => {
    if (where === "baseMint" || where === "payer") return invalid({ ...request, [where]: bad }, where, PublicKey.rule)
    if (where === "claimersArray") {
      const claimers = [...request.claimersArray]
      claimers[i] = bad
      return invalid({ ...request, claimersArray: claimers }, `claimersArray[${i}]`, PublicKey.rule)
    }
    const tables = [...(request.additionalLookupTables ?? []), bad]
    invalid(
      { ...request, additionalLookupTables: tables },
      `additionalLookupTables[${tables.length - 1}]`,
      PublicKey.rule
    )
  })
})

describe("FeeShare.PartnerClaimRequest and TransactionEntries", () => {
  it.prop("partnerWallet must be a public key", [publicKey, notPublicKey], ([good, bad]) => {
    assertValid(FeeShare.PartnerClaimRequest, { partnerWallet: good })
    assertInvalid(
      FeeShare.PartnerClaimRequest,
      { encoded: { partnerWallet: bad }, type: { partnerWallet: bad } },
      "partnerWallet",
      PublicKey.rule
    )
    assertInvalid(FeeShare.PartnerClaimRequest, { encoded: {} }, "partnerWallet", "is missing")
  })

  it("transaction entries must carry base58 transactions", () => {
    const entry = (transaction: string) => ({ blockhash: { blockhash: "h", lastValidBlockHeight: 1 }, transaction })
    assert.isTrue(Schema.is(FeeShare.TransactionEntries)({ transactions: [entry("3yZe7d")] }))
    assert.isFalse(Schema.is(FeeShare.TransactionEntries)({ transactions: [entry("AQID+w==")] }))
  })
})

type Create = typeof FeeShare.CreateConfigRequest.Type

/** A valid config creation with `min..max` claimers, and optional partner and tip pairs. */
const validCreate = (min = 1, max = 100): fc.Arbitrary<Create> =>
  distinctPublicKeys(min, max).chain((claimers) =>
    fc.record({
      baseMint: publicKey,
      payer: publicKey,
      bps: bpsSumming(claimers.length),
      tables: fc.array(publicKey, { minLength: 1, maxLength: 3 }),
      partner: fc.option(fc.tuple(publicKey, publicKey), { nil: undefined }),
      tip: fc.option(fc.tuple(publicKey, fc.integer({ min: 0, max: 1_000_000_000 })), { nil: undefined }),
      configType: fc.option(fc.constantFrom(...Object.values(FeeShare.configTypes)), { nil: undefined })
    }).map(({ baseMint, bps, configType, partner, payer, tables, tip }) => ({
      payer,
      baseMint,
      claimersArray: claimers,
      basisPointsArray: bps,
      ...(claimers.length > 7 ? { additionalLookupTables: tables } : {}),
      ...(partner === undefined ? {} : { partner: partner[0], partnerConfig: partner[1] }),
      ...(tip === undefined ? {} : { tipWallet: tip[0], tipLamports: tip[1] }),
      ...(configType === undefined ? {} : { platformConfigType: configType })
    }))
  )

const invalidCreate = (request: Create, field: string, rule: string) =>
  assertInvalid(FeeShare.CreateConfigRequest, { encoded: request, type: request }, field, rule)

describe("FeeShare.CreateConfigRequest", () => {
  it.prop("1..100 distinct claimers, bps summing to 10000, pairs complete: accepted, and the pure rule agrees", [
    validCreate()
  ], ([request]) => {
    assert.deepStrictEqual(assertValid(FeeShare.CreateConfigRequest, request), request)
    assert.isUndefined(FeeShare.createConfigIssue(request))
  })

  it.prop("bps that do not sum to 10000, or not aligned with the claimers, are rejected", [
    validCreate(2, 100).chain((request) => fc.tuple(fc.constant(request), fc.nat(request.basisPointsArray.length - 1)))
  ], ([[request, i]]) => {
    const bps = [...request.basisPointsArray]
    bps[i] = bps[i] === 0 ? 1 : bps[i]! - 1
    invalidCreate({ ...request, basisPointsArray: bps }, "basisPointsArray", FeeShare.createConfigRules.sum)
    invalidCreate(
      { ...request, basisPointsArray: request.basisPointsArray.slice(1) },
      "basisPointsArray",
      FeeShare.createConfigRules.sameLength
    )
  })

  it.prop("partner and partnerConfig go together; so do tipWallet and tipLamports", [
    validCreate(1, 7),
    publicKey
  ], ([request, key]) => {
    const { partner: _p, partnerConfig: _c, tipLamports: _l, tipWallet: _w, ...bare } = request
    invalidCreate({ ...bare, partner: key }, "partnerConfig", FeeShare.createConfigRules.partner)
    invalidCreate({ ...bare, partnerConfig: key }, "partner", FeeShare.createConfigRules.partner)
    invalidCreate({ ...bare, partner: key, partnerConfig: null }, "partnerConfig", FeeShare.createConfigRules.partner)
    invalidCreate({ ...bare, tipWallet: key }, "tipLamports", FeeShare.createConfigRules.tip)
    invalidCreate({ ...bare, tipLamports: 5 }, "tipWallet", FeeShare.createConfigRules.tip)
    assertValid(FeeShare.CreateConfigRequest, { ...bare, partner: null, partnerConfig: null })
  })

  it.prop("more than 7 claimers need lookup tables (7, not 15); up to 7 do not", [
    validCreate(8, 100),
    validCreate(1, 7)
  ], ([many, few]) => {
    const { additionalLookupTables: _, ...without } = many
    invalidCreate(without, "additionalLookupTables", FeeShare.rules.lookupTables)
    invalidCreate({ ...many, additionalLookupTables: [] }, "additionalLookupTables", FeeShare.rules.lookupTables)
    invalidCreate({ ...many, additionalLookupTables: null }, "additionalLookupTables", FeeShare.rules.lookupTables)
    const { additionalLookupTables: _f, ...fewWithout } = few
    assertValid(FeeShare.CreateConfigRequest, fewWithout)
  })

  it.prop("platformConfigType is one of the 7 types; absent means the reference's Default", [
    validCreate(1, 7),
    fc.string().filter((s) => !(Object.values(FeeShare.configTypes) as ReadonlyArray<string>).includes(s))
  ], ([request, other]) => {
    assert.strictEqual(FeeShare.defaultConfigType, "fa29606e-5e48-4c37-827f-4b03d58ee23d")
    assert.notStrictEqual(FeeShare.defaultConfigType, FeeShare.configTypes.locked96)
    assert.strictEqual(Object.keys(FeeShare.configTypes).length, 7)
    assert.isFalse(Schema.is(FeeShare.CreateConfigRequest)({ ...request, platformConfigType: other }))
  })

  it("the deployer earns 2500 bps of the gross claimers pool", () => {
    assert.strictEqual(FeeShare.deployerBps, 2_500)
  })
})
