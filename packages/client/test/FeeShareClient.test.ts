import { FetchHttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { Api, EvmAddress, FeeShareError, Trade } from "@feeshare/domain"
import { ConfigProvider, Effect, Layer, Option, Redacted, Schema, SubscriptionRef } from "effect"
import { FeeShareClient } from "../src/index.js"
import * as F from "./fixtures.js"
import { apiKey, apiServer, baseUrl, makeClient, type Received } from "./servers.js"

const inputOf = (received: ReadonlyArray<Received>, operation: string) =>
  received.filter((entry) => entry.operation === operation).map((entry) => entry.input)

describe("FeeShareClient against the HttpApi server", () => {
  it.scoped("claims: createPlan, positions, vaults", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      assert.deepStrictEqual(yield* client.claims.createPlan(F.claimPlanRequest), F.plan)
      assert.deepStrictEqual(yield* client.claims.positions({ wallet: F.wallet }), F.positions)
      assert.deepStrictEqual(yield* client.claims.vaults({ wallet: F.wallet }), F.vaults)
      assert.deepStrictEqual(inputOf(received, "claims.createPlan"), [F.claimPlanRequest])
      assert.deepStrictEqual(inputOf(received, "claims.positions"), [{ wallet: F.wallet }])
      assert.deepStrictEqual(inputOf(received, "claims.vaults"), [{ wallet: F.wallet }])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("feeShare: updateConfig, partnerClaim, adminList", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      assert.deepStrictEqual(yield* client.feeShare.updateConfig(F.updateConfigRequest), F.transactionEntries)
      assert.deepStrictEqual(yield* client.feeShare.partnerClaim({ partnerWallet: F.wallet }), F.transactionEntries)
      assert.deepStrictEqual(yield* client.feeShare.adminList({ wallet: F.wallet }), F.adminTokens)
      assert.deepStrictEqual(inputOf(received, "feeShare.updateConfig"), [F.updateConfigRequest])
      assert.deepStrictEqual(inputOf(received, "feeShare.partnerClaim"), [{ partnerWallet: F.wallet }])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("launch and trade: createTransaction, quote, swap (the quote travels back unchanged)", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      assert.strictEqual(yield* client.launch.createTransaction(F.launchRequest), F.base58Transaction)
      const quote = yield* client.trade.quote(F.quoteRequest)
      assert.deepStrictEqual(quote, F.quote)
      assert.deepStrictEqual(yield* client.trade.swap({ quoteResponse: quote, userPublicKey: F.wallet }), F.swapResult)
      assert.deepStrictEqual(inputOf(received, "launch.createTransaction"), [F.launchRequest])
      assert.deepStrictEqual(inputOf(received, "trade.quote"), [F.quoteRequest])
      const [swap] = inputOf(received, "trade.swap")
      // the unknown field arrived at the server exactly as the quote brought it
      assert.deepStrictEqual(
        Schema.encodeUnknownSync(Trade.SwapRequest)(swap),
        Schema.encodeSync(Trade.SwapRequest)({ quoteResponse: F.quote, userPublicKey: F.wallet })
      )
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("analytics: lifetimeFees (beyond 2^53), claimStats, pools (optional query)", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      assert.strictEqual(yield* client.analytics.lifetimeFees({ tokenMint: F.tokenMint }), F.lifetimeFees)
      assert.deepStrictEqual(yield* client.analytics.claimStats({ tokenMint: F.tokenMint }), F.claimStats)
      assert.deepStrictEqual(yield* client.analytics.pools(), F.pools)
      assert.deepStrictEqual(yield* client.analytics.pools({ onlyMigrated: true }), F.pools)
      assert.deepStrictEqual(inputOf(received, "analytics.pools"), [{}, { onlyMigrated: true }])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("evm: indexTokenStatus (normalised, deduplicated), claimablePositions, creationFee", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      assert.deepStrictEqual(yield* client.evm.indexTokenStatus({ tokenAddresses: F.evmAddresses }), F.indexStatuses)
      assert.deepStrictEqual(yield* client.evm.claimablePositions({ owner: F.evmOwner }), F.evmPositions)
      assert.deepStrictEqual(yield* client.evm.creationFee(), F.creationFee)
      const [status] = inputOf(received, "evm.indexTokenStatus")
      assert.deepStrictEqual(status, {
        tokenAddresses: [EvmAddress.toChecksum(F.evmToken), EvmAddress.toChecksum(F.evmBasket)]
      })
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("identity.me, ping and the rate-limit headers of every response", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      assert.deepStrictEqual(yield* SubscriptionRef.get(client.rateLimit), Option.none())
      assert.deepStrictEqual(yield* client.identity.me(), F.me)
      const first = yield* SubscriptionRef.get(client.rateLimit)
      assert.deepStrictEqual(yield* client.ping(), { message: "pong" })
      const second = yield* SubscriptionRef.get(client.rateLimit)
      assert.isTrue(Option.isSome(first) && Option.isSome(second))
      if (Option.isSome(first) && Option.isSome(second)) {
        assert.strictEqual(first.value.limit, 5000)
        assert.strictEqual(first.value.remaining, 4999)
        assert.strictEqual(second.value.remaining, 4998)
      }
      assert.deepStrictEqual(received.map((entry) => entry.operation), ["identity.me", "ping"])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("agentAuth: init and callback, then login with a real Ed25519 signer", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({})
      const wallet = F.makeSigner()
      const credential = yield* client.agentAuth.login({ signer: wallet.service, keyName: "ci" })
      assert.strictEqual(Redacted.value(credential.apiKey), "fs-new-key")
      assert.deepStrictEqual([credential.keyId, credential.isSignup], ["key-1", true])
      assert.strictEqual(wallet.signatures(), 1)
      const challenge = yield* client.agentAuth.init({ address: wallet.service.publicKey })
      assert.isTrue(challenge.nonce.startsWith("nonce-"))
      assert.deepStrictEqual(
        received.map((entry) => entry.operation),
        ["agentAuth.init", "agentAuth.callback", "agentAuth.init"]
      )
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("a missing key is the server's 401; no key is sent when none is configured", () =>
    Effect.gen(function*() {
      const client = yield* makeClient({})
      const error = yield* Effect.flip(client.identity.me())
      assertInstanceOf(error, FeeShareError.Unauthorized)
      assert.deepStrictEqual([error.status, error.message, error.operation], [401, "invalid api key", "identity.me"])
    }).pipe(Effect.provide(apiServer([]))))
})

describe("FeeShareClient input validation", () => {
  it.scoped("a broken rule fails with InvalidRequest naming the field and rule; nothing is sent", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(apiKey) })
      const sum = yield* Effect.flip(
        client.feeShare.updateConfig({ ...F.updateConfigRequest, basisPointsArray: [6000, 3000, 999] })
      )
      assertInstanceOf(sum, FeeShareError.InvalidRequest)
      assert.deepStrictEqual([sum.operation, sum.field, sum.rule], [
        "feeShare.updateConfig",
        "basisPointsArray",
        "must sum to exactly 10000"
      ])
      const key = yield* Effect.flip(client.claims.positions({ wallet: "not-a-key" }))
      assertInstanceOf(key, FeeShareError.InvalidRequest)
      assert.deepStrictEqual([key.field, key.operation], ["wallet", "claims.positions"])
      const { slippageBps: _, ...withoutBps } = F.quoteRequest
      const slippage = yield* Effect.flip(client.trade.quote({ ...withoutBps, slippageMode: "manual" }))
      assertInstanceOf(slippage, FeeShareError.InvalidRequest)
      assert.strictEqual(slippage.field, "slippageBps")
      const addresses = yield* Effect.flip(client.evm.indexTokenStatus({ tokenAddresses: [] }))
      assertInstanceOf(addresses, FeeShareError.InvalidRequest)
      assert.strictEqual(addresses.field, "tokenAddresses")
      const keyName = yield* Effect.flip(client.agentAuth.login({ signer: F.makeSigner().service, keyName: " " }))
      assertInstanceOf(keyName, FeeShareError.InvalidRequest)
      assert.strictEqual(keyName.field, "keyName")
      assert.deepStrictEqual(received, [])
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("bad options fail make with InvalidRequest", () =>
    Effect.gen(function*() {
      const make = (options: FeeShareClient.FeeShareClient.Options) =>
        Effect.flip(FeeShareClient.make(options).pipe(Effect.provide(FetchHttpClient.layer)))
      const url = yield* make({ baseUrl: "localhost:4000" })
      assert.strictEqual(url.field, "baseUrl")
      const attempts = yield* make({ baseUrl: "http://127.0.0.1:1/api/v1", retry: { maxAttempts: 0 } })
      assert.strictEqual(attempts.field, "retry.maxAttempts")
      const budget = yield* make({ baseUrl: "http://127.0.0.1:1/api/v1", budget: { limit: 1.5, window: "1 second" } })
      assert.strictEqual(budget.field, "budget.limit")
      const timeout = yield* make({ baseUrl: "http://127.0.0.1:1/api/v1", timeout: 0 })
      assert.strictEqual(timeout.field, "timeout")
      const delay = yield* make({ baseUrl: "http://127.0.0.1:1/api/v1", retry: { maxDelay: Infinity } })
      assert.strictEqual(delay.field, "retry")
    }))
})

describe("FeeShareClient.layerConfig", () => {
  it.scoped("reads FEESHARE_BASE_URL and FEESHARE_API_KEY (as Redacted)", () => {
    const received: Array<Received> = []
    return Effect.gen(function*() {
      const url = yield* baseUrl
      const layer = FeeShareClient.layerConfig().pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(
          Layer.setConfigProvider(
            ConfigProvider.fromMap(new Map([["FEESHARE_BASE_URL", `${url}/`], ["FEESHARE_API_KEY", apiKey]]))
          )
        )
      )
      const me = yield* Effect.flatMap(FeeShareClient.FeeShareClient, (client) => client.identity.me()).pipe(
        Effect.provide(layer)
      )
      assert.deepStrictEqual(me, F.me)
    }).pipe(Effect.provide(apiServer(received)))
  })

  it.scoped("a missing FEESHARE_BASE_URL is a ConfigError", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Effect.provide(
          FeeShareClient.FeeShareClient,
          FeeShareClient.layerConfig().pipe(
            Layer.provide(FetchHttpClient.layer),
            Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
          )
        )
      )
      assert.notStrictEqual(error._tag, "InvalidRequest")
      assert.include(String(error), "FEESHARE_BASE_URL")
    }))
})

describe("the client is derived from the Api", () => {
  it.scoped("every endpoint of Api.Api is a method of its group (ping at the top level)", () =>
    Effect.gen(function*() {
      const client = yield* FeeShareClient.make({ baseUrl: "http://127.0.0.1:1/api/v1" }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const methods = Object.values(Api.Api.groups).flatMap((group) =>
        Object.values(group.endpoints).map((endpoint) => {
          const holder: unknown = group.identifier === "system" ? client : Reflect.get(client, group.identifier)
          return typeof holder === "object" && holder !== null &&
            typeof Reflect.get(holder, endpoint.name) === "function"
        })
      )
      assert.strictEqual(methods.length, 28)
      assert.isTrue(methods.every((found) => found))
    }))
})
