/**
 * `Tamper`: every kind yields a plan the client's checks refuse before any signature, with
 * the refusal the kind promises, naming the stage it changed; the tamperer's counts,
 * probabilities and order; and `Options.tamper` through the served claim-plan endpoint.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { Api, type Plan } from "@feeshare/domain"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import type { KeyPairSigner } from "@solana/kit"
import { Cause, Effect, Either, Exit, FastCheck as fc, Layer, Redacted, Schema } from "effect"
import * as Seeded from "../src/internal/model/seeded.js"
import * as Ledger from "../src/Ledger.js"
import * as LedgerChain from "../src/LedgerChain.js"
import { Market } from "../src/Market.js"
import * as MarketLive from "../src/MarketLive.js"
import * as Options from "../src/Options.js"
import * as Sandbox from "../src/Sandbox.js"
import * as Server from "../src/Server.js"
import * as Tamper from "../src/Tamper.js"
import { signAndSend, SOL, verifyStage, wallet } from "./support/ledgerWallet.js"

const options = Options.make({ slotMillis: 0, seed: "tamper-test" })
const TestMarket = MarketLive.layerWithLedger(options)

/** Real plans of the market for a holding claimer: v0 setup, v0 ready, v1 ready, and a one-stage plan. */
const plans = Effect.gen(function*() {
  const market = yield* Market
  const ledger = yield* Ledger.Ledger
  const creator = yield* wallet()
  const claimer = yield* wallet(10n * SOL)
  const created = yield* market.createToken({ creator: creator.address })
  const holding = yield* market.createHolding({ mint: created.mint, claimer: claimer.address, lamports: 100_000_000n })
  const request = {
    feeClaimer: claimer.address,
    tokenMint: created.mint,
    source: { kind: "holding" as const, authority: holding.authority }
  }
  const v1 = yield* market.createPlan({ ...request, transactionFormat: "v1" })
  const setup = yield* market.createPlan({ ...request, transactionFormat: "v0" })
  for (const stage of setup.transactions) {
    yield* verifyStage(stage)
    yield* signAndSend(stage.transaction, "base64", [claimer])
  }
  yield* ledger.advance(1)
  const v0 = yield* market.createPlan({ ...request, transactionFormat: "v0" })
  assert.deepStrictEqual([setup.readiness.status, v0.readiness.status, v1.readiness.status], [
    "setup_required",
    "ready",
    "ready"
  ])
  const single: Plan.TransactionPlan = { ...v1, transactions: v1.transactions.slice(0, 1) }
  return { claimer, plans: { setup, v0, v1, single } }
})

const signersOf = (claimer: KeyPairSigner) => Signers.layer(LocalSigner.fromKeyPairSigner(claimer))

/** The tag and the stage of what `PlanExecutor.verify` refuses the plan with. */
const refusal = (plan: Plan.TransactionPlan, claimer: KeyPairSigner) =>
  PlanExecutor.verify(plan).pipe(
    Effect.flip,
    Effect.map((error) => ({
      tag: error._tag,
      stage: error._tag === "InvalidPlan" ? error.violations[0]?.stage : error.stage
    })),
    Effect.provide(signersOf(claimer))
  )

const planOf = (tampered: Tamper.Tampered | undefined): Plan.TransactionPlan => {
  if (tampered === undefined) throw new Error("expected a tampered plan")
  return tampered.plan
}

describe("Tamper", () => {
  it.effect("every kind, on any plan and seed, is refused by PlanExecutor.verify with its refusal, naming its stage", () =>
    Effect.gen(function*() {
      const { claimer, plans: all } = yield* plans
      const named = Object.entries(all)
      for (const [name, plan] of named) {
        const verified = yield* PlanExecutor.verify(plan).pipe(Effect.provide(signersOf(claimer)))
        assert.strictEqual(verified.stages.length, plan.transactions.length, `${name} verifies untampered`)
      }
      const property = fc.asyncProperty(
        fc.string(),
        fc.constantFrom(...Tamper.planKinds),
        fc.constantFrom(...named),
        async (seed, kind, [name, plan]) => {
          const tampered = Tamper.apply(plan, kind, Seeded.stream(seed, "property"))
          if (tampered === undefined) throw new Error("a plan with stages is always tampered")
          const found = await Effect.runPromise(refusal(tampered.plan, claimer))
          assert.deepStrictEqual(
            found,
            { tag: Tamper.kinds[kind].refusal, stage: tampered.stage },
            `${kind} on ${name}`
          )
          // one stage changed, the others served as they were
          const changed = tampered.plan.transactions.filter((stage, i) => stage !== plan.transactions[i])
          assert.deepStrictEqual(changed.map((stage) => stage.id), [tampered.stage])
        }
      )
      yield* Effect.promise(() => fc.assert(property, { numRuns: 200 }))
    }).pipe(Effect.provide(TestMarket)))

  it.effect("PlanExecutor.execute refuses every kind before it signs anything", () =>
    Effect.gen(function*() {
      const { claimer, plans: { v0, v1 } } = yield* plans
      const local = LocalSigner.fromKeyPairSigner(claimer)
      let signed = 0
      const spy = Signers.layer({
        publicKey: local.publicKey,
        signMessage: (message) =>
          Effect.suspend(() => {
            signed++
            return local.signMessage(message)
          })
      })
      for (const plan of [v0, v1]) {
        for (const kind of Tamper.planKinds) {
          const tampered = planOf(Tamper.apply(plan, kind, Seeded.stream("execute", kind)))
          const error = yield* PlanExecutor.execute(tampered, { rebuild: () => Effect.succeed(tampered) }).pipe(
            Effect.flip,
            Effect.provide(Layer.merge(spy, LedgerChain.layer(options)))
          )
          assert.strictEqual(error._tag, Tamper.kinds[kind].refusal, kind)
        }
      }
      assert.strictEqual(signed, 0, "nothing was signed")
    }).pipe(Effect.provide(TestMarket)))

  it.effect("a plan without stages is never tampered; apply is deterministic from the stream", () =>
    Effect.gen(function*() {
      const { plans: { v1 } } = yield* plans
      const empty: Plan.TransactionPlan = { ...v1, transactions: [], readiness: { status: "setup_required" } }
      for (const kind of Tamper.planKinds) {
        assert.isUndefined(Tamper.apply(empty, kind, Seeded.stream("s", "t")))
        assert.deepStrictEqual(
          Tamper.apply(v1, kind, Seeded.stream("s", "t")),
          Tamper.apply(v1, kind, Seeded.stream("s", "t"))
        )
      }
      const tamperer = Tamper.make("s", [{ kind: "wrong-size", plans: 1 }])
      assert.isUndefined(tamperer.next(empty), "an empty plan does not use up the count")
      assert.strictEqual(tamperer.next(v1)?.kind, "wrong-size")
      assert.isUndefined(tamperer.next(v1))
    }).pipe(Effect.provide(TestMarket)))

  it.effect("counts: the next N plans, then none; several tamperings take turns in order", () =>
    Effect.gen(function*() {
      const { plans: { v1 } } = yield* plans
      const kindsOf = (tamperer: Tamper.Tamperer, count: number) =>
        Array.from({ length: count }, () => tamperer.next(v1)?.kind ?? "none")
      assert.deepStrictEqual(kindsOf(Tamper.make("s", [{ kind: "wrong-hash", plans: 3 }]), 5), [
        "wrong-hash",
        "wrong-hash",
        "wrong-hash",
        "none",
        "none"
      ])
      assert.deepStrictEqual(
        kindsOf(
          Tamper.make("s", [{ kind: "wrong-size", plans: 1 }, { kind: "wrong-hash", plans: 2 }, { kind: "flip-byte" }]),
          5
        ),
        ["wrong-size", "wrong-hash", "wrong-hash", "flip-byte", "flip-byte"]
      )
      assert.deepStrictEqual(kindsOf(Tamper.make("s", []), 2), ["none", "none"])
    }).pipe(Effect.provide(TestMarket)))

  it.effect("probability: about P of the plans, the same ones for the same seed", () =>
    Effect.gen(function*() {
      const { plans: { v1 } } = yield* plans
      const run = (seed: string) => {
        const tamperer = Tamper.make(seed, [{ kind: "wrong-budget", probability: 0.3 }])
        return Array.from({ length: 200 }, () => tamperer.next(v1) !== undefined)
      }
      const first = run("a")
      const hits = first.filter(Boolean).length
      assert.isAbove(hits, 30)
      assert.isBelow(hits, 90)
      assert.deepStrictEqual(run("a"), first)
      assert.notDeepEqual(run("b"), first)
      const always = Tamper.make("a", [{ kind: "wrong-budget", probability: 1 }])
      assert.isTrue(Array.from({ length: 50 }, () => always.next(v1) !== undefined).every(Boolean))
    }).pipe(Effect.provide(TestMarket)))

  it.effect("the schema: probability in (0, 1], plans a positive integer, not both", () =>
    Effect.sync(() => {
      const valid = (input: unknown) => Either.isRight(Schema.decodeUnknownEither(Tamper.Tamper)(input))
      assert.isTrue(valid({ kind: "flip-byte" }))
      assert.isTrue(valid({ kind: "flip-byte", probability: 1 }))
      assert.isTrue(valid({ kind: "flip-byte", plans: 2 }))
      assert.isFalse(valid({ kind: "flip-bite" }))
      assert.isFalse(valid({ kind: "flip-byte", probability: 0 }))
      assert.isFalse(valid({ kind: "flip-byte", probability: 1.5 }))
      assert.isFalse(valid({ kind: "flip-byte", plans: 0 }))
      assert.isFalse(valid({ kind: "flip-byte", plans: 1.5 }))
      assert.isFalse(valid({ kind: "flip-byte", plans: 1, probability: 0.5 }))
    }))
})

/** The served API with the sandbox's demo key. */
const client = Effect.gen(function*() {
  const info = yield* Server.SandboxInfo
  return yield* HttpApiClient.make(Server.FullApi, {
    baseUrl: info.rootUrl,
    transformClient: HttpClient.mapRequest(
      HttpClientRequest.setHeader(Api.apiKeyHeader, Redacted.value(info.demoApiKey))
    )
  })
}).pipe(Effect.provide(FetchHttpClient.layer))

describe("Options.tamper (in process)", () => {
  it.effect("the claim-plan endpoint serves the next plan tampered, then plans that verify", () =>
    Effect.gen(function*() {
      const api = yield* client
      const claimer = yield* wallet(SOL)
      const created = yield* api.sandbox.createToken({ payload: { creator: claimer.address } })
      const holding = yield* api.sandbox.createHolding({
        payload: { mint: created.mint, claimer: claimer.address, lamports: 100_000_000n }
      })
      const createPlan = api.claims.createPlan({
        payload: {
          feeClaimer: claimer.address,
          tokenMint: created.mint,
          transactionFormat: "v1",
          source: { kind: "holding", authority: holding.authority }
        }
      })
      const first = yield* createPlan
      assert.strictEqual((yield* refusal(first, claimer)).tag, "LifetimeMismatch")
      const second = yield* createPlan
      const verified = yield* PlanExecutor.verify(second).pipe(Effect.provide(signersOf(claimer)))
      assert.strictEqual(verified.stages.length, 2)
    }).pipe(
      Effect.provide(
        Sandbox.layer({ seed: "tamper-options", slotMillis: 0, tamper: [{ kind: "wrong-lifetime", plans: 1 }] })
      )
    ))

  it.effect("a bad Options.tamper stops the sandbox at start-up, naming the rule", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        Effect.scoped(Layer.build(Sandbox.layer({ tamper: [{ kind: "flip-byte", plans: 0 }] })))
      )
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        assert.include(Cause.pretty(exit.cause), "sandbox option tamper")
        assert.include(Cause.pretty(exit.cause), "must be a plan count, an integer >= 1")
      }
    }))
})
