import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { Analytics, Claims, Envelope, PublicKey } from "../src/index.js"
import { notPublicKey, publicKey, u64 } from "./arbitraries.js"
import { assertInvalid, assertValid } from "./assertions.js"
import { endpoint } from "./endpoints.js"

describe("queries", () => {
  it.prop("wallet and tokenMint queries take public keys", [publicKey, notPublicKey], ([key, bad]) => {
    assertValid(Claims.WalletQuery, { wallet: key })
    assertValid(Analytics.TokenMintQuery, { tokenMint: key })
    assertInvalid(Claims.WalletQuery, { encoded: { wallet: bad }, type: { wallet: bad } }, "wallet", PublicKey.rule)
    assertInvalid(
      Analytics.TokenMintQuery,
      { encoded: { tokenMint: bad }, type: { tokenMint: bad } },
      "tokenMint",
      PublicKey.rule
    )
    assertInvalid(Claims.WalletQuery, { encoded: {} }, "wallet", "is missing")
  })

  it("pools onlyMigrated is the string true|false (or 1|0) ⇄ boolean, optional", () => {
    assert.deepStrictEqual(assertValid(Analytics.PoolsQuery, { onlyMigrated: "true" }), { onlyMigrated: true })
    assert.deepStrictEqual(assertValid(Analytics.PoolsQuery, { onlyMigrated: "false" }), { onlyMigrated: false })
    assert.deepStrictEqual(assertValid(Analytics.PoolsQuery, { onlyMigrated: "1" }), { onlyMigrated: true })
    assert.deepStrictEqual(assertValid(Analytics.PoolsQuery, { onlyMigrated: "0" }), { onlyMigrated: false })
    assert.deepStrictEqual(assertValid(Analytics.PoolsQuery, {}), {})
    assert.deepStrictEqual(Schema.encodeSync(Analytics.PoolsQuery)({ onlyMigrated: true }), { onlyMigrated: "true" })
    for (const bad of ["2", "yes", "TRUE", "", " true"]) {
      const result = Schema.decodeUnknownEither(Analytics.PoolsQuery)({ onlyMigrated: bad })
      assert.isTrue(Either.isLeft(result), bad)
    }
  })
})

describe("analytics resources", () => {
  const context = { status: 200, operation: "analytics" }

  it.prop("lifetime fees keep full u64 precision", [u64], ([fees]) => {
    const decoded = Envelope.decode(
      endpoint("analytics", "lifetimeFees").successSchema,
      JSON.stringify({ success: true, response: fees.toString() }),
      context
    )
    assert.deepStrictEqual(decoded, Either.right(fees))
  })

  it.prop("pool entries with null keys round-trip", [
    fc.array(
      fc.record({
        tokenMint: publicKey,
        dbcConfigKey: fc.option(publicKey),
        dbcPoolKey: fc.option(publicKey),
        dammV2PoolKey: fc.option(publicKey)
      }),
      { maxLength: 20 }
    )
  ], ([pools]) => {
    const text = JSON.stringify({ success: true, response: pools })
    const decoded = Envelope.decode(endpoint("analytics", "pools").successSchema, text, context)
    assert.deepStrictEqual(decoded, Either.right(pools))
    if (Either.isRight(decoded)) {
      assert.deepStrictEqual(
        Schema.encodeSync(endpoint("analytics", "pools").successSchema)(decoded.right),
        JSON.parse(text)
      )
    }
  })

  it.prop("claim statistics: totalClaimed is a bigint, provider may be null, social names may be absent", [
    fc.record({
      username: fc.string(),
      pfp: fc.string(),
      royaltyBps: fc.nat(10_000),
      isCreator: fc.boolean(),
      wallet: publicKey,
      totalClaimed: u64.map(String),
      provider: fc.constantFrom(null, "social", "unknown"),
      providerUsername: fc.option(fc.string()),
      socialUsername: fc.string(),
      platformUsername: fc.string(),
      isAdmin: fc.boolean()
    }, { requiredKeys: ["username", "pfp", "royaltyBps", "isCreator", "wallet", "totalClaimed", "isAdmin"] })
  ], ([entry]) => {
    const decoded = Envelope.decode(
      endpoint("analytics", "claimStats").successSchema,
      JSON.stringify({ success: true, response: [entry] }),
      context
    )
    if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
    assert.strictEqual(decoded.right[0]!.totalClaimed, BigInt(entry.totalClaimed))
    assert.deepStrictEqual(Schema.encodeSync(endpoint("analytics", "claimStats").successSchema)(decoded.right), {
      success: true,
      response: [entry]
    })
  })

  it("claim statistics: a null username or social name is refused (the service sends strings, or omits the names)", () => {
    const entry = {
      username: "",
      pfp: "",
      royaltyBps: 1,
      isCreator: true,
      wallet: "w",
      totalClaimed: "1",
      isAdmin: false
    }
    const decode = (patch: object) =>
      Envelope.decode(
        endpoint("analytics", "claimStats").successSchema,
        JSON.stringify({ success: true, response: [{ ...entry, ...patch }] }),
        context
      )
    assert.isTrue(Either.isRight(decode({})))
    for (const patch of [{ username: null }, { pfp: null }, { socialUsername: null }, { platformUsername: null }]) {
      assert.isTrue(Either.isLeft(decode(patch)), JSON.stringify(patch))
    }
  })
})
