import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import * as Fake from "./support/FakeMarket.js"
import { call, decodeSuccess, fetchReply } from "./support/http.js"

describe("Sandbox", () => {
  it.effect("serves the ledger's JSON-RPC at /rpc next to the API, outside the rate limits", () =>
    Effect.gen(function*() {
      const info = yield* Server.SandboxInfo
      assert.strictEqual(info.rpcUrl, `${info.rootUrl}/rpc`)
      const reply = yield* fetchReply(info.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" })
      })
      assert.strictEqual(reply.status, 200)
      const body = reply.json as { id: number; result: unknown }
      assert.strictEqual(body.id, 1)
      assert.isNumber(body.result)
      assert.isUndefined(reply.headers["x-ratelimit-limit"])
      // the API is served by the same server
      assert.deepStrictEqual(decodeSuccess("system", "ping", yield* call("system", "ping")), { message: "pong" })
    }).pipe(Effect.provide(Sandbox.layerWithMarket({ rateLimit: 1 }, Fake.layer))))

  it.effect("over the real market: successes decode, refusals keep their status as envelopes", () =>
    Effect.gen(function*() {
      const creator = Fake.key(21)
      const stranger = Fake.key(22)
      const token = decodeSuccess(
        "sandbox",
        "createToken",
        yield* call("sandbox", "createToken", {
          apiKey: null,
          body: { creator, symbol: "SBX" }
        })
      ) as { mint: string; configKey: string }
      // not launched yet: the service's 400 `token launch not found`, on both analytics reads
      for (const name of ["lifetimeFees", "claimStats"]) {
        const unlaunched = yield* call("analytics", name, { query: { tokenMint: token.mint } })
        assert.strictEqual(unlaunched.status, 400, unlaunched.text)
        assert.include((unlaunched.json as { error: string }).error, "token launch not found")
      }
      decodeSuccess("analytics", "pools", yield* call("analytics", "pools"))
      const admin = decodeSuccess(
        "feeShare",
        "adminList",
        yield* call("feeShare", "adminList", { query: { wallet: creator } })
      )
      assert.deepStrictEqual(admin, { tokenMints: [token.mint] })

      const unknown = yield* call("analytics", "lifetimeFees", { query: { tokenMint: Fake.key(23) } })
      assert.strictEqual(unknown.status, 400)
      assert.include((unknown.json as { error: string }).error, "token launch not found")
      const forbidden = yield* call("feeShare", "updateConfig", {
        body: { baseMint: token.mint, basisPointsArray: [10000], claimersArray: [stranger], payer: stranger }
      })
      assert.deepStrictEqual(forbidden.json, {
        success: false,
        error: `${stranger} is not the fee-share admin of ${token.mint}`
      })
      assert.strictEqual(forbidden.status, 400)
      const unknownField = yield* call("feeShare", "updateConfig", {
        body: { baseMint: token.mint, basisPointsArray: [10000], claimersArray: [creator], payer: creator, memo: "x" }
      })
      assert.strictEqual(unknownField.status, 400)
      assert.include((unknownField.json as { error: string }).error, "memo is unexpected")
      const nullTables = yield* call("feeShare", "updateConfig", {
        body: {
          baseMint: token.mint,
          basisPointsArray: [10000],
          claimersArray: [creator],
          payer: creator,
          additionalLookupTables: null
        }
      })
      assert.strictEqual(nullTables.status, 200, nullTables.text)
      const noPartner = yield* call("feeShare", "partnerClaim", { body: { partnerWallet: stranger } })
      assert.strictEqual(noPartner.status, 404, noPartner.text)
      const auto = yield* call("trade", "quote", {
        query: { inputMint: creator, outputMint: token.mint, amount: "1", slippageMode: "auto", slippageBps: "50" }
      })
      assert.notInclude(auto.text, "slippageBps")
      const migrated = yield* call("analytics", "pools", { query: { onlyMigrated: "1" } })
      assert.strictEqual(migrated.status, 200, migrated.text)
      const nothing = yield* call("claims", "createPlan", { body: { feeClaimer: stranger, tokenMint: token.mint } })
      assert.strictEqual(nothing.status, 400)
      assert.deepStrictEqual(Object.keys(nothing.json as object).sort(), ["error", "success"])

      // a holding created through the sandbox-only route turns "nothing to claim" into a plan
      const holding = decodeSuccess(
        "sandbox",
        "createHolding",
        yield* call("sandbox", "createHolding", {
          apiKey: null,
          body: { mint: token.mint, claimer: stranger, lamports: "300000000" }
        })
      ) as { authority: string; held: bigint }
      assert.strictEqual(holding.held, 300_000_000n)
      const plan = yield* call("claims", "createPlan", {
        body: {
          feeClaimer: stranger,
          tokenMint: token.mint,
          transactionFormat: "v1",
          source: { kind: "holding", authority: holding.authority }
        }
      })
      assert.strictEqual(plan.status, 200)
      const decoded = decodeSuccess("claims", "createPlan", plan) as { operation: { kind: string } }
      assert.strictEqual(decoded.operation.kind, "holding_claim")
    }).pipe(Effect.provide(Sandbox.layer())))
})
