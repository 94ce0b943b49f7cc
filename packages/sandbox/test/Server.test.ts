import { assert, describe, it } from "@effect/vitest"
import { RateLimit, Trade } from "@feeshare/domain"
import { Effect, Option, Schema } from "effect"
import * as SandboxApi from "../src/SandboxApi.js"
import * as Server from "../src/Server.js"
import * as Fake from "./support/FakeMarket.js"
import { call, decodeSuccess, fetchReply, type Reply, sandbox } from "./support/http.js"
import { login } from "./support/wallet.js"

const { keys } = Fake

const hasRateLimitHeaders = (reply: Reply) => {
  const info = RateLimit.fromHeaders(reply.headers)
  assert.isTrue(Option.isSome(info), `rate-limit headers on ${reply.status} ${reply.text}`)
  return Option.getOrThrow(info)
}

const fixtures = Effect.gen(function*() {
  const info = yield* Server.SandboxInfo
  const reply = yield* fetchReply(`${info.rootUrl}${SandboxApi.prefix}/evm/fixtures`)
  return Schema.decodeUnknownSync(SandboxApi.EvmFixtures)((reply.json as { response: unknown }).response)
})

/** One call per operation of the contract, with what the success must hold. */
const operations: ReadonlyArray<{
  readonly group: string
  readonly name: string
  readonly call: Parameters<typeof call>[2]
  readonly check?: (value: unknown, reply: Reply) => void
}> = [
  {
    group: "claims",
    name: "createPlan",
    call: { body: { feeClaimer: keys.wallet, tokenMint: keys.mint, transactionFormat: "v0" } },
    check: (plan) => assert.deepStrictEqual(plan, Fake.plan)
  },
  { group: "claims", name: "positions", call: { query: { wallet: keys.wallet } } },
  { group: "claims", name: "vaults", call: { query: { wallet: keys.partner } } },
  {
    group: "feeShare",
    name: "updateConfig",
    call: {
      body: {
        baseMint: keys.mint,
        basisPointsArray: [6000, 4000],
        claimersArray: [keys.wallet, keys.partner],
        payer: keys.wallet
      }
    }
  },
  { group: "feeShare", name: "partnerClaim", call: { body: { partnerWallet: keys.partner } } },
  {
    group: "feeShare",
    name: "adminList",
    call: { query: { wallet: keys.wallet } },
    check: (value) => assert.deepStrictEqual(value, { tokenMints: [keys.mint] })
  },
  {
    group: "launch",
    name: "createTransaction",
    call: {
      body: {
        ipfs: "ipfs://meta",
        tokenMint: keys.mint,
        wallet: keys.wallet,
        configKey: keys.config,
        initialBuyLamports: 0
      }
    }
  },
  {
    group: "trade",
    name: "quote",
    call: { query: { inputMint: keys.quoteMint, outputMint: keys.mint, amount: "1000000" } },
    check: (value) => assert.deepStrictEqual(value, Fake.quote)
  },
  {
    group: "trade",
    name: "swap",
    call: { body: { quoteResponse: Schema.encodeSync(Trade.TradeQuote)(Fake.quote), userPublicKey: keys.wallet } }
  },
  {
    group: "analytics",
    name: "lifetimeFees",
    call: { query: { tokenMint: keys.mint } },
    check: (value, reply) => {
      assert.strictEqual(value, Fake.lifetimeFees)
      assert.include(reply.text, `"${Fake.lifetimeFees}"`)
    }
  },
  { group: "analytics", name: "claimStats", call: { query: { tokenMint: keys.mint } } },
  {
    group: "analytics",
    name: "pools",
    call: { query: { onlyMigrated: "true" } },
    check: (value) => assert.lengthOf(value as ReadonlyArray<unknown>, 1)
  },
  { group: "evm", name: "creationFee", call: {} },
  { group: "identity", name: "me", call: {} },
  { group: "agentAuth", name: "init", call: { body: { address: keys.wallet }, apiKey: null } },
  {
    group: "system",
    name: "ping",
    call: {},
    check: (value) => assert.deepStrictEqual(value, { message: "pong" })
  }
]

describe("Server: the 19 operations over HTTP", () => {
  it.effect("every success decodes with its endpoint's success schema and carries the rate-limit headers", () =>
    Effect.gen(function*() {
      for (const operation of operations) {
        const reply = yield* call(operation.group, operation.name, operation.call)
        assert.strictEqual(reply.status, 200, `${operation.group}.${operation.name}: ${reply.text}`)
        const value = decodeSuccess(operation.group, operation.name, reply)
        operation.check?.(value, reply)
        hasRateLimitHeaders(reply)
      }
    }).pipe(Effect.provide(sandbox())))

  it.effect("EVM reads: index status normalises and dedupes, positions of v1/v2/v3, truncated discovery", () =>
    Effect.gen(function*() {
      const evm = yield* fixtures
      const index = evm.indexTokens[0]!
      const plain = evm.plainTokens[0]!
      const statuses = yield* call("evm", "indexTokenStatus", {
        body: { tokenAddresses: [index.address.toLowerCase(), plain, index.address.toUpperCase().replace("0X", "0x")] }
      })
      assert.deepStrictEqual(decodeSuccess("evm", "indexTokenStatus", statuses), [
        { tokenAddress: index.address, isIndexToken: true, tokens: index.basket },
        { tokenAddress: plain, isIndexToken: false, tokens: [] }
      ])
      const held = decodeSuccess(
        "evm",
        "claimablePositions",
        yield* call("evm", "claimablePositions", { query: { owner: evm.holder.toLowerCase() } })
      ) as {
        positions: ReadonlyArray<{ version: string; actionableWei: bigint; claimableWei: bigint; pendingWei: bigint }>
        truncated: boolean
      }
      assert.deepStrictEqual(held.positions.map((p) => p.version), ["v1", "v2", "v3"])
      assert.isFalse(held.truncated)
      for (const p of held.positions) assert.strictEqual(p.actionableWei, p.claimableWei + p.pendingWei)
      const whale = decodeSuccess(
        "evm",
        "claimablePositions",
        yield* call("evm", "claimablePositions", { query: { owner: evm.whale } })
      ) as { positions: ReadonlyArray<unknown>; truncated: boolean }
      assert.isTrue(whale.truncated)
      assert.lengthOf(whale.positions, evm.discoveryBound)
      const fee = decodeSuccess("evm", "creationFee", yield* call("evm", "creationFee"))
      assert.deepStrictEqual(fee, { creationFeeWei: evm.creationFeeWei })
    }).pipe(Effect.provide(sandbox())))

  it.effect("auth/me answers the owner of the key", () =>
    Effect.gen(function*() {
      const reply = yield* call("identity", "me")
      const me = decodeSuccess("identity", "me", reply) as { user: { uuid: string; username?: string | null } }
      assert.strictEqual(me.user.username, "demo")
      assert.match(me.user.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }).pipe(Effect.provide(sandbox())))
})

describe("Server: failures", () => {
  it.effect("a broken rule is 400 naming the operation, the field and the rule", () =>
    Effect.gen(function*() {
      const duplicate = yield* call("feeShare", "updateConfig", {
        body: {
          baseMint: keys.mint,
          basisPointsArray: [5000, 5000],
          claimersArray: [keys.wallet, keys.wallet],
          payer: keys.wallet
        }
      })
      assert.strictEqual(duplicate.status, 400)
      assert.deepStrictEqual(duplicate.json, {
        success: false,
        error: "feeShare.updateConfig: claimersArray[1] must not repeat a claimer"
      })
      const sum = yield* call("feeShare", "updateConfig", {
        body: {
          baseMint: keys.mint,
          basisPointsArray: [5000, 4000],
          claimersArray: [keys.wallet, keys.partner],
          payer: keys.wallet
        }
      })
      assert.deepStrictEqual(sum.json, {
        success: false,
        error: "feeShare.updateConfig: basisPointsArray must sum to exactly 10000"
      })
      const missing = yield* call("claims", "positions", { query: {} })
      assert.deepStrictEqual([missing.status, missing.json], [400, {
        success: false,
        error: "claims.positions: wallet is missing"
      }])
      const badKey = yield* call("analytics", "lifetimeFees", { query: { tokenMint: "not-a-key" } })
      assert.deepStrictEqual(badKey.json, {
        success: false,
        error: "analytics.lifetimeFees: tokenMint must be a base58 public key of 32 bytes"
      })
      const slippage = yield* call("trade", "quote", {
        query: { inputMint: keys.quoteMint, outputMint: keys.mint, amount: "1", slippageMode: "manual" }
      })
      assert.deepStrictEqual(slippage.json, {
        success: false,
        error: "trade.quote: slippageBps is required when slippageMode is manual"
      })
      const json = yield* call("feeShare", "partnerClaim", { raw: "{not json" })
      assert.deepStrictEqual([json.status, json.json], [400, {
        success: false,
        error: "feeShare.partnerClaim: Invalid JSON body"
      }])
      hasRateLimitHeaders(json)
    }).pipe(Effect.provide(sandbox())))

  it.effect("EVM operations put the 400 message in `response`; their 401 uses `error`", () =>
    Effect.gen(function*() {
      const bad = yield* call("evm", "claimablePositions", { query: { owner: "0x1234" } })
      assert.strictEqual(bad.status, 400)
      assert.deepStrictEqual(Object.keys(bad.json as object).sort(), ["response", "success"])
      assert.include((bad.json as { response: string }).response, "owner must be a 0x-prefixed 20-byte hex address")
      const tooMany = yield* call("evm", "indexTokenStatus", { body: { tokenAddresses: [] } })
      assert.deepStrictEqual(tooMany.json, {
        success: false,
        response: "evm.indexTokenStatus: tokenAddresses must have 1 to 100 entries"
      })
      const unauthorized = yield* call("evm", "creationFee", { apiKey: null })
      assert.deepStrictEqual([unauthorized.status, Object.keys(unauthorized.json as object).sort()], [401, [
        "error",
        "success"
      ]])
    }).pipe(Effect.provide(sandbox())))

  it.effect("EVM operations put an injected 500 in `response`, the others in `error`", () =>
    Effect.gen(function*() {
      const evm = yield* call("evm", "creationFee")
      assert.deepStrictEqual([evm.status, evm.json], [500, {
        success: false,
        response: "Injected failure (sandbox errorRates 500)"
      }])
      hasRateLimitHeaders(evm)
      const other = yield* call("analytics", "pools")
      assert.deepStrictEqual([other.status, other.json], [500, {
        success: false,
        error: "Injected failure (sandbox errorRates 500)"
      }])
    }).pipe(Effect.provide(sandbox({ errorRates: { 500: 1 } }))))

  it.effect("missing, unknown and revoked keys are 401 with the headers", () =>
    Effect.gen(function*() {
      const missing = yield* call("identity", "me", { apiKey: null })
      assert.deepStrictEqual([missing.status, missing.json], [401, {
        success: false,
        error: "Missing API key (x-api-key header)"
      }])
      hasRateLimitHeaders(missing)
      const unknown = yield* call("identity", "me", { apiKey: "fs_sbx_nope" })
      assert.deepStrictEqual([unknown.status, unknown.json], [401, { success: false, error: "Invalid API key" }])

      const info = yield* Server.SandboxInfo
      const signedIn = yield* login("revoke-me")
      const before = yield* call("identity", "me", { apiKey: signedIn.apiKey })
      assert.strictEqual(before.status, 200)
      const revoked = yield* fetchReply(`${info.rootUrl}${SandboxApi.prefix}/keys/revoke`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ keyId: signedIn.keyId })
      })
      assert.deepStrictEqual(revoked.json, { success: true, response: { keyId: signedIn.keyId, revoked: true } })
      const after = yield* call("identity", "me", { apiKey: signedIn.apiKey })
      assert.deepStrictEqual([after.status, after.json], [401, { success: false, error: "Invalid API key" }])
    }).pipe(Effect.provide(sandbox())))

  it.effect("market refusals keep their status: 400 nothing to claim, 403 not the admin, 404 unknown token", () =>
    Effect.gen(function*() {
      const nothing = yield* call("claims", "createPlan", { body: { feeClaimer: keys.empty, tokenMint: keys.mint } })
      assert.deepStrictEqual([nothing.status, nothing.json], [400, { success: false, error: "Nothing to claim" }])
      const forbidden = yield* call("feeShare", "updateConfig", {
        body: { baseMint: keys.mint, basisPointsArray: [10000], claimersArray: [keys.wallet], payer: keys.stranger }
      })
      assert.deepStrictEqual(
        [forbidden.status, forbidden.json],
        [403, { success: false, error: "Only the fee-share admin can update the config" }]
      )
      const unknown = yield* call("analytics", "lifetimeFees", { query: { tokenMint: keys.unknown } })
      assert.deepStrictEqual([unknown.status, unknown.json], [404, {
        success: false,
        error: `Token ${keys.unknown} not found`
      }])
    }).pipe(Effect.provide(sandbox())))

  it.effect("an unknown route is a 404 envelope", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      const reply = yield* fetchReply(`${info.baseUrl}/no/such/route?x=1`)
      assert.deepStrictEqual([reply.status, reply.json], [404, {
        success: false,
        error: "Not found: GET /api/v1/no/such/route"
      }])
      hasRateLimitHeaders(reply)
      const wrongMethod = yield* fetchReply(`${info.rootUrl}/ping`, { method: "DELETE" })
      assert.strictEqual(wrongMethod.status, 404)
    }).pipe(Effect.provide(sandbox())))

  it.effect("a defect is a 500 envelope without its message or stack", () =>
    Effect.gen(function*() {
      const reply = yield* call("analytics", "lifetimeFees", { query: { tokenMint: keys.boom } })
      assert.deepStrictEqual([reply.status, reply.json], [500, { success: false, error: "Internal server error" }])
      assert.notInclude(reply.text, "exploded")
      assert.notInclude(reply.text, " at ")
      hasRateLimitHeaders(reply)
    }).pipe(Effect.provide(sandbox())))
})

describe("Server: sandbox-only operations", () => {
  it.effect("live under /sandbox, need no key, and decode with the SandboxApi schemas", () =>
    Effect.gen(function*() {
      const token = yield* call("sandbox", "createToken", { body: { creator: keys.wallet }, apiKey: null })
      assert.deepStrictEqual(decodeSuccess("sandbox", "createToken", token), {
        mint: keys.mint,
        configKey: keys.config,
        quoteMint: keys.quoteMint,
        decimals: 9
      })
      assert.isUndefined(token.headers[RateLimit.headerNames.limit])
      const config = yield* call("sandbox", "createFeeShareConfig", {
        apiKey: null,
        body: { mint: keys.mint, admin: keys.wallet, claimers: [{ wallet: keys.wallet, bps: 10000 }] }
      })
      assert.strictEqual(config.status, 200)
      decodeSuccess("sandbox", "createFeeShareConfig", config)
      const airdrop = yield* call("sandbox", "airdrop", {
        apiKey: null,
        body: { address: keys.wallet, lamports: "5000" }
      })
      assert.deepStrictEqual(decodeSuccess("sandbox", "airdrop", airdrop), { signature: "airdrop-1", balance: 5000n })
      const slots = yield* call("sandbox", "advanceSlots", { apiKey: null, body: { slots: 3 } })
      decodeSuccess("sandbox", "advanceSlots", slots)
      decodeSuccess("sandbox", "state", yield* call("sandbox", "state", { apiKey: null }))
      const invalid = yield* call("sandbox", "advanceSlots", { apiKey: null, body: { slots: 0 } })
      assert.strictEqual(invalid.status, 400)
      assert.include((invalid.json as { error: string }).error, "sandbox.advanceSlots: slots")
    }).pipe(Effect.provide(sandbox())))
})
