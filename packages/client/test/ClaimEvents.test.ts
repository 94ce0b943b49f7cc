/**
 * Claim events through the client against the real sandbox: after claims land on the ledger,
 * each token's events name the wallet, the amount claimed and the landed signature; time mode
 * returns only the window's events; bad queries are typed errors naming the field, before
 * anything is sent; the service's own 400 carries its message in `response`.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import { Api, ClaimEvents, FeeShareError } from "@feeshare/domain"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import * as Seed from "@feeshare/sandbox/Seed"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { Context, Effect, Layer, Redacted } from "effect"
import { FeeShareClient } from "../src/index.js"

/** What the seed made, and the claims the demo wallet landed: per token, its amount and signature. */
class Claimed extends Context.Tag("test/Claimed")<Claimed, {
  readonly seeded: Seed.Seeded
  readonly claims: ReadonlyArray<{ readonly mint: string; readonly amount: bigint; readonly signature: string }>
}>() {}

/** A seeded sandbox where the demo wallet has claimed every position it was owed (v1 plans). */
const claimedLayer = Layer.scoped(
  Claimed,
  Effect.gen(function*() {
    const seeded = yield* Seed.make("client-claim-events")
    const info = yield* SandboxInfo
    const feeshare = yield* FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
    const signer = yield* Effect.flatMap(
      LocalSigner.parseKeygenJson(Redacted.value(seeded.demoKeygen), "demo keygen"),
      LocalSigner.fromSecretKey
    )
    const owed = (yield* feeshare.claims.positions({ wallet: seeded.demoWallet })).filter((p) =>
      p.totalClaimableLamportsUserShare > 0
    )
    const claims = yield* Effect.forEach(owed, (position) =>
      Effect.gen(function*() {
        const request = {
          feeClaimer: seeded.demoWallet,
          tokenMint: position.baseMint,
          transactionFormat: "v1"
        } as const
        const plan = yield* feeshare.claims.createPlan(request)
        const result = yield* PlanExecutor.execute(plan, {
          rebuild: () => feeshare.claims.createPlan(request),
          format: "v1"
        }).pipe(Effect.provide(Layer.merge(Signers.layer(signer), ChainRpc.layer(info.rpcUrl))))
        const stage = result.stages.find((s) => s.kind === "claim")
        return {
          mint: position.baseMint,
          amount: BigInt(position.totalClaimableLamportsUserShare),
          signature: stage?.signature ?? ""
        }
      }).pipe(undici))
    return { seeded, claims }
  }).pipe(Effect.provide(NodeHttpClient.layerUndici))
)

const client = Effect.flatMap(
  SandboxInfo,
  (info) => FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey })
)

const undici = Effect.provide(NodeHttpClient.layerUndici)

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

describe("analytics.claimEvents", () => {
  layer(Layer.provideMerge(claimedLayer, Sandbox.layer({ port: 0, slotMillis: 20, seed: "client-claim-events" })), {
    // the sandbox's block clock must tick while the claims confirm
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.scoped("after claims land: one event per claim, with its wallet, amount, signature and creator flag", () =>
      Effect.gen(function*() {
        const { claims, seeded } = yield* Claimed
        const feeshare = yield* client
        assert.isAbove(claims.length, 1, "the demo wallet was owed on several tokens")
        for (const claim of claims) {
          const { events } = yield* feeshare.analytics.claimEvents({ tokenMint: claim.mint })
          assert.strictEqual(events.length, 1, claim.mint)
          const [event] = events
          const migrated = seeded.tokens.find((t) => t.mint === claim.mint)?.migrated
          assert.deepInclude(event, {
            wallet: seeded.demoWallet,
            amount: claim.amount,
            signature: claim.signature,
            isCreator: migrated === true
          })
          assert.instanceOf(event?.timestamp, Date)
        }
        // a token nobody claimed has none
        const unclaimed = seeded.tokens.find((t) => t.launched && !claims.some((c) => c.mint === t.mint))
        if (unclaimed !== undefined) {
          assert.deepStrictEqual(yield* feeshare.analytics.claimEvents({ tokenMint: unclaimed.mint }), { events: [] })
        }
      }).pipe(undici))

    it.scoped("pages and windows: offset/limit slice the newest-first list; time mode keeps only the window", () =>
      Effect.gen(function*() {
        const { claims } = yield* Claimed
        const feeshare = yield* client
        const tokenMint = claims[0]!.mint
        const { events: [event] } = yield* feeshare.analytics.claimEvents({ tokenMint, limit: 1, offset: 0 })
        assert.isDefined(event)
        assert.deepStrictEqual(yield* feeshare.analytics.claimEvents({ tokenMint, offset: 1 }), { events: [] })
        const at = seconds(event!.timestamp)
        const window = (from: number, to: number) =>
          Effect.map(feeshare.analytics.claimEvents({ tokenMint, mode: "time", from, to }), (r) => r.events.length)
        assert.strictEqual(yield* window(at, at), 1)
        assert.strictEqual(yield* window(at - 120, at + 120), 1)
        assert.strictEqual(yield* window(0, at - 1), 0)
        assert.strictEqual(yield* window(at + 1, at + 3600), 0)
      }).pipe(undici))

    it.scoped("bad limit, offset and windows: InvalidRequest naming the field, nothing sent; the service's 400 reads from `response`", () =>
      Effect.gen(function*() {
        const { claims, seeded } = yield* Claimed
        const info = yield* SandboxInfo
        const tokenMint = claims[0]!.mint
        // a base URL nothing listens on: a request that went out would fail as a transport error
        const offline = yield* FeeShareClient.make({ baseUrl: "http://127.0.0.1:9/api/v1", apiKey: info.demoApiKey })
        const cases = [
          [{ tokenMint, limit: 0 }, "limit", ClaimEvents.rules.limit],
          [{ tokenMint, limit: 101 }, "limit", ClaimEvents.rules.limit],
          [{ tokenMint, limit: 1.5 }, "limit", ClaimEvents.rules.limit],
          [{ tokenMint, offset: -1 }, "offset", ClaimEvents.rules.offset],
          [{ tokenMint, mode: "time", from: 10 }, "to", ClaimEvents.rules.requiredInTime],
          [{ tokenMint, mode: "time", from: 10, to: 9 }, "to", ClaimEvents.rules.order],
          [{ tokenMint, mode: "time", from: 1, to: 2, limit: 5 }, "limit", ClaimEvents.rules.offsetOnly],
          [{ tokenMint, from: 1 }, "from", ClaimEvents.rules.timeOnly]
        ] as const
        for (const [query, field, rule] of cases) {
          const error = yield* Effect.flip(offline.analytics.claimEvents(query))
          assert.instanceOf(error, FeeShareError.InvalidRequest, JSON.stringify(query))
          assert.deepInclude(error, { field, rule }, JSON.stringify(query))
        }
        // sent raw, the sandbox refuses the same with a 400 whose message is in `response`
        const path = Api.AnalyticsGroup.endpoints.claimEvents.path
        const raw = yield* Effect.promise(async () => {
          const response = await fetch(`${info.rootUrl}${path}?tokenMint=${tokenMint}&limit=0`, {
            headers: { [Api.apiKeyHeader]: Redacted.value(info.demoApiKey) }
          })
          return { status: response.status, body: (await response.json()) as Record<string, unknown> }
        })
        assert.strictEqual(raw.status, 400)
        assert.strictEqual(raw.body["success"], false)
        assert.include(String(raw.body["response"]), "limit")
        // a mint the service does not know: its 400, the message read from `response`
        const feeshare = yield* client
        const unknown = yield* Effect.flip(feeshare.analytics.claimEvents({ tokenMint: seeded.demoWallet }))
        assert.instanceOf(unknown, FeeShareError.BadRequest)
        assert.include(unknown.message, "token not found")
      }).pipe(undici))
  })
})
