import { assert, describe, it } from "@effect/vitest"
import type { Plan } from "@feeshare/domain"
import { Signer, WireTransaction as Wire } from "@feeshare/domain"
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit"
import { Cause, Chunk, Clock, Effect, Exit, FastCheck as fc, Layer, Option, Stream } from "effect"
import * as Chain from "../src/Chain.js"
import * as LocalSigner from "../src/LocalSigner.js"
import * as PlanExecutor from "../src/PlanExecutor.js"
import * as Signers from "../src/Signers.js"
import * as FakeChain from "./helpers/FakeChain.js"
import { buildStage, plan as planOf, randomBlockhash, transfer } from "./helpers/StageBuilder.js"

interface Keys {
  readonly server: KeyPairSigner
  readonly caller: KeyPairSigner
  readonly dest: KeyPairSigner
}

const keysOnce = Effect.cached(
  Effect.promise(async (): Promise<Keys> => ({
    server: await generateKeyPairSigner(),
    caller: await generateKeyPairSigner(),
    dest: await generateKeyPairSigner()
  }))
)

/** The caller's signer, counting the signatures it makes (none may precede a refusal). */
const countingSigner = (key: KeyPairSigner) => {
  const inner = LocalSigner.fromKeyPairSigner(key)
  let signatures = 0
  const signer: Signer.Signer.Service = {
    publicKey: inner.publicKey,
    signMessage: (message) =>
      Effect.suspend(() => {
        signatures++
        return inner.signMessage(message)
      })
  }
  return { signer, count: () => signatures }
}

/** The service side of a test: builds plans for a DAG, one generation per (re)build. */
class Service {
  generation = 0
  readonly stageOf = new Map<string, { readonly id: string; readonly index: number; readonly generation: number }>()
  readonly lifetimes = new Map<string, bigint>()
  chain: FakeChain.FakeChain | undefined

  constructor(
    readonly keys: Keys,
    readonly deps: ReadonlyArray<ReadonlyArray<number>>,
    readonly lifetimeBlocks: number,
    readonly keepLanded: boolean
  ) {}

  readonly id = (index: number) => `s${index}`

  landed(index: number): Effect.Effect<Option.Option<number>> {
    const chain = this.chain!
    const signatures = [...this.stageOf.entries()].filter(([, s]) => s.index === index).map(([sig]) => sig)
    return Effect.map(
      Effect.forEach(signatures, (sig) => chain.landedAt(sig)),
      (times) => Option.fromNullable(times.flatMap(Option.toArray).sort((a, b) => a - b)[0])
    )
  }

  build(): Effect.Effect<Plan.TransactionPlan> {
    return Effect.gen(this, function*() {
      const generation = this.generation++
      const height = yield* this.chain!.height
      const lifetime = { blockhash: randomBlockhash(), lastValidBlockHeight: height + BigInt(this.lifetimeBlocks) }
      const include: Array<number> = []
      for (let i = 0; i < this.deps.length; i++) {
        if (this.keepLanded || Option.isNone(yield* this.landed(i))) include.push(i)
      }
      const kept = new Set(include)
      const stages: Array<Plan.Stage> = []
      for (const i of include) {
        const stage = yield* Effect.promise(() =>
          buildStage({
            id: this.id(i),
            dependsOn: this.deps[i]!.filter((d) => kept.has(d)).map(this.id),
            format: i % 2 === 0 ? "v1" : "v0",
            feePayer: this.keys.server,
            instructions: [transfer(this.keys.caller.address, this.keys.dest.address, BigInt(i + 1))],
            lifetime
          })
        )
        const signature = FakeChain.signatureOf(Wire.toBytes(stage.transaction, "base64")!)
        this.stageOf.set(signature, { id: stage.id, index: i, generation })
        this.lifetimes.set(signature, lifetime.lastValidBlockHeight)
        stages.push(stage)
      }
      return planOf(stages)
    })
  }
}

const dagArbitrary = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, j) => j))))
)

const behaviourArbitrary = fc.record({
  latencyMs: fc.integer({ min: 0, max: 4000 }),
  drop: fc.integer({ min: 0, max: 7 }).map((n) => n === 0)
})

describe("PlanExecutor on a fake chain", () => {
  it.effect.prop(
    "random DAGs, landing order, latency, drops and expiry: ordering, no resubmission, typed end",
    {
      deps: dagArbitrary,
      behaviours: fc.array(behaviourArbitrary, { minLength: 1, maxLength: 12 }),
      lifetimeBlocks: fc.integer({ min: 3, max: 12 }),
      keepLanded: fc.boolean()
    },
    ({ behaviours, deps, keepLanded, lifetimeBlocks }) =>
      Effect.gen(function*() {
        const keys = yield* (yield* keysOnce)
        const service = new Service(keys, deps, lifetimeBlocks, keepLanded)
        const chain = FakeChain.make({
          behaviours,
          blockMillis: 400,
          pollMillis: 500,
          lifetimeOf: (signature) => service.lifetimes.get(signature) ?? 0n
        })
        service.chain = chain
        const landedEvents = new Map<string, number>()
        const first = yield* service.build()
        const fiber = yield* PlanExecutor.execute(first, {
          rebuild: () => service.build(),
          maxRebuilds: 5,
          onEvent: (event) =>
            event._tag === "Landed"
              ? Effect.map(Clock.currentTimeMillis, (now) => void landedEvents.set(event.stage, now))
              : Effect.void
        }).pipe(
          Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
          Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(keys.caller))),
          Effect.fork
        )
        const exit = yield* FakeChain.drive(fiber)

        // a typed end: success, or a bound reached
        if (Exit.isFailure(exit)) {
          const failure = Cause.failureOption(exit.cause)
          assert.isTrue(Option.isSome(failure), `not a typed failure: ${Cause.pretty(exit.cause)}`)
          assert.strictEqual(Option.getOrThrow(failure)._tag, "RebuildLimitReached")
        } else {
          const ids = exit.value.stages.map((s) => s.id).sort()
          assert.deepStrictEqual(ids, deps.map((_, i) => service.id(i)).sort(), "every stage landed exactly once")
          for (let i = 0; i < deps.length; i++) assert.isTrue(Option.isSome(yield* service.landed(i)))
        }

        const lastIndexByGeneration = new Map<number, number>()
        for (const send of chain.sends) {
          const stage = service.stageOf.get(send.signature)!
          // never before the dependencies landed
          for (const dep of deps[stage.index]!) {
            const depLanded = yield* service.landed(dep)
            assert.isTrue(
              Option.isSome(depLanded) && depLanded.value <= send.at,
              `${stage.id} sent before s${dep} landed`
            )
          }
          // never after the executor saw the stage land
          const seen = landedEvents.get(stage.id)
          assert.isTrue(seen === undefined || send.at <= seen, `${stage.id} sent after it landed`)
          if (!send.first) continue
          // a new transaction for a stage that already landed would be a resubmission
          const landed = yield* service.landed(stage.index)
          assert.isTrue(Option.isNone(landed) || landed.value >= send.at, `${stage.id} resubmitted after landing`)
          // first sends follow the plan's order within a generation
          const last = lastIndexByGeneration.get(stage.generation) ?? -1
          assert.isAbove(stage.index, last, `${stage.id} submitted out of order`)
          lastIndexByGeneration.set(stage.generation, stage.index)
        }
      }),
    { fastCheck: { numRuns: 12 }, timeout: 30_000 }
  )

  const setup = (options: {
    readonly behaviours: ReadonlyArray<FakeChain.Behaviour>
    readonly deps: ReadonlyArray<ReadonlyArray<number>>
  }) =>
    Effect.gen(function*() {
      const keys = yield* (yield* keysOnce)
      const service = new Service(keys, options.deps, 50, false)
      const chain = FakeChain.make({
        behaviours: options.behaviours,
        blockMillis: 400,
        pollMillis: 100,
        lifetimeOf: (signature) => service.lifetimes.get(signature) ?? 0n
      })
      service.chain = chain
      return { keys, service, chain }
    })

  it.effect("setup_required: runs the setup stage, polls while warming up, then executes the plan", () =>
    Effect.gen(function*() {
      const { chain, keys, service } = yield* setup({ behaviours: [{ latencyMs: 300 }], deps: [[], [0], [0]] })
      const setupStage = yield* Effect.promise(() =>
        buildStage({
          id: "alt",
          kind: "lookup_table_setup",
          format: "v0",
          feePayer: keys.server,
          instructions: [transfer(keys.caller.address, keys.dest.address, 99n)],
          lifetime: { blockhash: randomBlockhash(), lastValidBlockHeight: 10_000n }
        })
      )
      const setupSignature = FakeChain.signatureOf(Wire.toBytes(setupStage.transaction, "base64")!)
      service.lifetimes.set(setupSignature, 10_000n)
      let calls = 0
      const rebuild = () => {
        calls++
        return calls <= 2 ? Effect.succeed(planOf([], "setup_required")) : service.build()
      }
      const events: Array<PlanExecutor.Event> = []
      const fiber = yield* PlanExecutor.stream(planOf([setupStage], "setup_required"), {
        rebuild,
        warmupInterval: "1 second"
      }).pipe(
        Stream.runForEach((event) => Effect.sync(() => events.push(event))),
        Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
        Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(keys.caller))),
        Effect.fork
      )
      const exit = yield* FakeChain.drive(fiber)
      assert.isTrue(Exit.isSuccess(exit))
      assert.strictEqual(calls, 3)
      const tags = events.map((e) => e._tag)
      assert.strictEqual(tags.filter((t) => t === "Waiting").length, 2)
      assert.deepStrictEqual(
        events.filter((e) => e._tag === "Rebuilt").map((e) => e._tag === "Rebuilt" ? e.reason : ""),
        ["setup", "warming_up", "warming_up"]
      )
      const last = events[events.length - 1]!
      assert.strictEqual(last._tag, "Completed")
      if (last._tag === "Completed") {
        assert.deepStrictEqual(last.result.stages.slice(0, 2).map((s) => s.id), ["alt", "s0"])
        assert.sameMembers(last.result.stages.map((s) => s.id), ["alt", "s0", "s1", "s2"])
        assert.strictEqual(last.result.stages[0]!.kind, "lookup_table_setup")
      }
      // the setup stage was sent before any plan stage, and the plan only after the setup landed
      assert.strictEqual(chain.sends[0]!.signature, setupSignature)
      // independent stages s1 and s2 overlap: both submitted before either landed
      const firstSend = (id: string) => chain.sends.find((s) => service.stageOf.get(s.signature)?.id === id)!.at
      const landed1 = Option.getOrThrow(yield* service.landed(1))
      assert.isTrue(firstSend("s2") < landed1)
    }))

  it.effect("warming up past the deadline fails with SetupTimedOut", () =>
    Effect.gen(function*() {
      const { chain, keys } = yield* setup({ behaviours: [{ latencyMs: 0 }], deps: [[]] })
      const fiber = yield* PlanExecutor.execute(planOf([], "setup_required"), {
        rebuild: () => Effect.succeed(planOf([], "setup_required")),
        warmupInterval: "5 seconds",
        warmupDeadline: "30 seconds"
      }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
        Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(keys.caller))),
        Effect.fork
      )
      const exit = yield* FakeChain.drive(fiber)
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        assert.strictEqual(Option.getOrThrow(Cause.failureOption(exit.cause))._tag, "SetupTimedOut")
      }
    }))

  it.effect("an on-chain failure stops the execution with TransactionFailed and its logs", () =>
    Effect.gen(function*() {
      const { chain, keys, service } = yield* setup({
        behaviours: [{ latencyMs: 100 }, { latencyMs: 100, fail: true }, { latencyMs: 100 }],
        deps: [[], [0], [1]]
      })
      const fiber = yield* PlanExecutor.execute(yield* service.build(), { rebuild: () => service.build() }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
        Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(keys.caller))),
        Effect.fork
      )
      const exit = yield* FakeChain.drive(fiber)
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        const error = Option.getOrThrow(Cause.failureOption(exit.cause))
        assert.strictEqual(error._tag, "TransactionFailed")
        if (error._tag === "TransactionFailed") {
          assert.strictEqual(error.error, "InstructionError(0, Custom(6001))")
          assert.strictEqual(error.logs.length, 1)
        }
      }
      // s2 depends on the failed s1: never sent
      assert.isFalse(chain.sends.some((s) => service.stageOf.get(s.signature)?.id === "s2"))
    }))

  it.effect("a refused stage stops everything before any signature is made or anything is sent", () =>
    Effect.gen(function*() {
      const { chain, keys, service } = yield* setup({ behaviours: [{ latencyMs: 0 }], deps: [[], [0], [1]] })
      const good = yield* service.build()
      const tampered = good.transactions.map((stage, i) =>
        i === 2 ? { ...stage, budget: { ...stage.budget, computeUnitLimit: stage.budget.computeUnitLimit + 1 } } : stage
      )
      const { count, signer: spy } = countingSigner(keys.caller)
      const error = yield* PlanExecutor.execute({ ...good, transactions: tampered }, { rebuild: () => service.build() })
        .pipe(
          Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
          Effect.provide(Signers.layer(spy)),
          Effect.flip
        )
      assert.strictEqual(error._tag, "BudgetMismatch")
      if (error._tag === "BudgetMismatch") assert.strictEqual(error.stage, "s2")
      assert.strictEqual(count(), 0)
      assert.strictEqual(chain.sends.length, 0)
    }))

  it.effect("an invalid plan is refused with InvalidPlan", () =>
    Effect.gen(function*() {
      const { chain, keys, service } = yield* setup({ behaviours: [{ latencyMs: 0 }], deps: [[], [0]] })
      const good = yield* service.build()
      const bad = { ...good, transactions: [...good.transactions].reverse() }
      const error = yield* PlanExecutor.execute(bad, { rebuild: () => service.build() }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
        Effect.provide(Signers.layer(LocalSigner.fromKeyPairSigner(keys.caller))),
        Effect.flip
      )
      assert.strictEqual(error._tag, "InvalidPlan")
      assert.strictEqual(Chunk.size(Chunk.fromIterable(chain.sends)), 0)
    }))

  it.effect("a stage in another format than the one requested is refused before any signature", () =>
    Effect.gen(function*() {
      const { chain, keys, service } = yield* setup({ behaviours: [{ latencyMs: 0 }], deps: [[], [0]] })
      const plan = yield* service.build()
      assert.deepStrictEqual(plan.transactions.map((stage) => stage.format), ["v1", "v0"])
      const { count, signer: spy } = countingSigner(keys.caller)
      const error = yield* PlanExecutor.execute(plan, { rebuild: () => service.build(), format: "v0" }).pipe(
        Effect.provide(Layer.succeed(Chain.Chain, chain.service)),
        Effect.provide(Signers.layer(spy)),
        Effect.flip
      )
      assert.strictEqual(error._tag, "FormatMismatch")
      if (error._tag === "FormatMismatch") {
        assert.strictEqual(error.stage, "s0")
        assert.include(error.message, "requested as v0")
      }
      assert.strictEqual(count(), 0)
      assert.strictEqual(chain.sends.length, 0)
    }))

  it.effect("verify (a dry run): every check execute makes before signing, and nothing signed", () =>
    Effect.gen(function*() {
      const { keys, service } = yield* setup({ behaviours: [{ latencyMs: 0 }], deps: [[], [0], [0, 1]] })
      const plan = yield* service.build()
      const counting = countingSigner(keys.caller)
      const spy = Signers.layer(counting.signer)
      const count = counting.count
      const report = yield* PlanExecutor.verify(plan).pipe(Effect.provide(spy))
      assert.deepStrictEqual(report.stages.map((stage) => stage.id), ["s0", "s1", "s2"])

      // a dependency that points forward: the real run refuses it, so does the dry run
      const forward = { ...plan, transactions: [...plan.transactions].reverse() }
      assert.strictEqual(
        (yield* Effect.flip(PlanExecutor.verify(forward).pipe(Effect.provide(spy))))._tag,
        "InvalidPlan"
      )
      // the requested format
      const v0 = yield* Effect.flip(PlanExecutor.verify(plan, { format: "v0" }).pipe(Effect.provide(spy)))
      assert.strictEqual(v0._tag, "FormatMismatch")
      // a tampered stage
      const tampered = {
        ...plan,
        transactions: plan.transactions.map((stage, i) => i === 1 ? { ...stage, messageSha256: "0".repeat(64) } : stage)
      }
      assert.strictEqual(
        (yield* Effect.flip(PlanExecutor.verify(tampered).pipe(Effect.provide(spy))))._tag,
        "MessageHashMismatch"
      )
      assert.strictEqual(count(), 0)
    }))

  it.effect("expiredStages names the stages whose lastValidBlockHeight the chain has passed", () =>
    Effect.gen(function*() {
      const { chain, service } = yield* setup({ behaviours: [{ latencyMs: 0 }], deps: [[], [0]] })
      const plan = yield* service.build()
      const valid = plan.transactions[0]!.lifetime.lastValidBlockHeight
      const at = (height: bigint) =>
        PlanExecutor.expiredStages(plan).pipe(
          Effect.provide(Layer.succeed(Chain.Chain, { ...chain.service, blockHeight: () => Effect.succeed(height) }))
        )
      assert.deepStrictEqual(yield* at(valid), [])
      assert.deepStrictEqual(yield* at(valid + 1n), ["s0", "s1"])
    }))
})
