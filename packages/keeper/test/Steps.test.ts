/**
 * The claim's named steps and the journal's one writer: the journal is written only from
 * `JournalWrites.ts`; the fee-cap step counts the journal's last hour and the plan's fees and
 * fails with an error its Schema names; the start step reads earlier attempts from the journal
 * and the service. Real sandbox, real plans, a real SQLite journal.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import { Clock, Effect, Exit, Layer, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import * as Claim from "../src/Claim.js"
import * as Journal from "../src/Journal.js"
import * as JournalWrites from "../src/JournalWrites.js"
import * as Keeper from "../src/Keeper.js"
import * as KeeperConfig from "../src/KeeperConfig.js"
import * as Settings from "../src/Settings.js"
import { type KeyFile, keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "./support/fixture.js"

const source = join(import.meta.dirname, "..", "src")

/** The Settings and a fresh journal of a keeper over `wallets`, with `config`. */
const steps = (wallets: ReadonlyArray<KeyFile>, config: Omit<Partial<KeeperConfig.Config>, "wallets">) =>
  Effect.gen(function*() {
    const dir = temporaryDirectory("keeper-steps-")
    const decoded = yield* KeeperConfig.decode({
      wallets: wallets.map((w) => ({ keypair: w.path })),
      database: join(dir, "keeper.db"),
      ...config
    })
    const settings = Settings.make({
      config: decoded,
      wallets: wallets.map((w) => ({
        signer: w.signer,
        source: w.path,
        rules: KeeperConfig.defaultRules
      }))
    })
    return Layer.merge(Layer.succeed(Settings.Settings, settings), Keeper.layerJournal(decoded.database))
  }).pipe(Effect.orDie)

/** A journaled stage of `key` with `fee`, signed at `createdAt`. */
const stage = (key: string, wallet: string, mint: string, stageId: string, fee: bigint, createdAt: number) => ({
  key,
  wallet,
  mint,
  round: 0,
  stage: stageId,
  kind: stageId === "claim" ? "claim" : "setup",
  dependsOn: [],
  signature: `${key}-${stageId}-signature`,
  bytes: "AA==",
  lastValidBlockHeight: 100n,
  fee,
  claimable: 1_000_000n,
  createdAt,
  runner: null
})

describe("Claim steps", () => {
  it("the journal is written from one module: JournalWrites", () => {
    const writes = /\.(recordSigned|settle|recordRun|recordOwner)\(/
    const writers = readdirSync(source)
      .filter((file) => file.endsWith(".ts") && writes.test(readFileSync(join(source, file), "utf8")))
    // Journal.ts defines the writes (its SQL), JournalWrites.ts is the only module that calls them
    assert.deepStrictEqual(writers, ["JournalWrites.ts"])
  })

  it("each claim step names its success and error Schemas", () => {
    for (
      const step of [
        Claim.settleEarlier,
        Claim.start,
        Claim.checkFeeCap,
        Claim.checkPays,
        Claim.buildPlan,
        Claim.execute
      ]
    ) {
      assert.isTrue(Schema.isSchema(step.success), step.name)
      assert.isTrue(Schema.isSchema(step.error), step.name)
    }
    assert.deepStrictEqual(
      [Claim.settleEarlier, Claim.start, Claim.checkFeeCap, Claim.checkPays, Claim.buildPlan, Claim.execute].map((s) =>
        s.name
      ),
      ["settleEarlier", "start", "checkFeeCap", "checkPays", "buildPlan", "execute"]
    )
  })

  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-steps" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect("checkFeeCap: the last hour's landed and failed fees plus the plan's pass the cap: FeeCapReached", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-steps-keys-")
        const wallets = yield* Effect.forEach([0], (i) => keyFile(dir, `w${i}`))
        const [mint] = yield* positions({ wallets, tokens: 1, claimersPerToken: 1, buySol: () => 2n })
        const wallet = wallets[0]!.signer.publicKey
        const client = yield* FeeShareClient
        const plan = yield* client.claims.createPlan(Claim.request(wallet, mint!, "v1"))
        const now = yield* Clock.currentTimeMillis
        const hourAgo = now - 3_600_000

        // the plan's own fees alone: 2 stages, each at least the 5000-lamport signature fee
        const run = (cap: number, journaled: ReadonlyArray<readonly [fee: bigint, at: number, landed: boolean]>) =>
          Effect.flatMap(steps(wallets, { maxFeesPerHourLamports: cap }), (journal) =>
            Effect.gen(function*() {
              yield* Effect.forEach(journaled, ([fee, at, landed], i) =>
                Effect.zipRight(
                  JournalWrites.recordSigned.run([stage(`k${i}`, wallet, mint!, "claim", fee, at)]),
                  JournalWrites.settle.run(
                    { signature: `k${i}-claim-signature`, fee },
                    landed ? "landed" : "failed",
                    null
                  )
                ))
              return yield* Effect.exit(Claim.checkFeeCap.run(plan))
            }).pipe(Effect.provide(journal)))

        const generous = yield* run(1_000_000, [[6_000n, now - 1000, true]])
        assert.isTrue(Exit.isSuccess(generous) && Schema.is(Claim.checkFeeCap.success)(generous.value))

        // 500_000 spent in the hour (one landed, one failed with its fee paid): the plan passes the cap
        const spent = yield* run(500_000, [[300_000n, now - 1000, true], [200_000n, hourAgo + 5000, false]])
        assert.isTrue(Exit.isFailure(spent))
        if (Exit.isFailure(spent) && spent.cause._tag === "Fail") {
          const error = spent.cause.error
          assert.isTrue(Schema.is(Claim.checkFeeCap.error)(error))
          assert.strictEqual(error._tag, "FeeCapReached")
          if (error._tag === "FeeCapReached") {
            assert.strictEqual(error.spentLamports, 500_000n)
            assert.isTrue(error.neededLamports >= 10_000n)
            assert.strictEqual(error.capLamports, 500_000n)
          }
        } else {
          assert.fail(`expected FeeCapReached, got ${String(spent)}`)
        }

        // the same fees, more than an hour old: they no longer count
        const old = yield* run(500_000, [[300_000n, hourAgo - 1000, true], [200_000n, hourAgo - 5000, false]])
        assert.isTrue(Exit.isSuccess(old))
      }))

    it.effect("start: no earlier attempt claims what the pass saw; a landed claim is that attempt's outcome; else what is claimable now", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-steps-keys-")
        const wallets = yield* Effect.forEach([0], (i) => keyFile(dir, `w${i}`))
        const [mint] = yield* positions({ wallets, tokens: 1, claimersPerToken: 1, buySol: () => 2n })
        const wallet = wallets[0]!.signer.publicKey
        const claimableNow = (yield* owed(wallets)).get(wallet)!.get(mint!)!
        assert.isTrue(claimableNow > 0)
        const now = yield* Clock.currentTimeMillis
        const position = (key: string) => ({ wallet, mint: mint!, key })
        const results = yield* Effect.gen(function*() {
          const fresh = yield* Claim.start.run(position("fresh"), 123)
          // an attempt whose setup landed (fee 7000), whose claim landed (fee 5000)
          yield* JournalWrites.recordSigned.run([
            stage("done", wallet, mint!, "setup", 7_000n, now),
            stage("done", wallet, mint!, "claim", 5_000n, now)
          ])
          yield* JournalWrites.settle.run({ signature: "done-setup-signature", fee: 7_000n }, "landed", 10n)
          yield* JournalWrites.settle.run({ signature: "done-claim-signature", fee: 5_000n }, "landed", 11n)
          const done = yield* Claim.start.run(position("done"), 456)
          // an attempt whose claim expired: the service says what is claimable now
          yield* JournalWrites.recordSigned.run([stage("expired", wallet, mint!, "claim", 5_000n, now)])
          yield* JournalWrites.settle.run({ signature: "expired-claim-signature", fee: 5_000n }, "expired", null)
          const expired = yield* Claim.start.run(position("expired"), 789)
          return { fresh, done, expired }
        }).pipe(Effect.provide(yield* steps(wallets, {})))

        assert.deepStrictEqual(results.fresh, { _tag: "Claim", claimable: 123, round: 0 })
        assert.deepStrictEqual(results.done, {
          _tag: "Finished",
          outcome: Claim.outcome({
            outcome: "claimed",
            // what that attempt journaled it claims (`stage`), not what this pass saw (456)
            lamports: 1_000_000n,
            fees: 12_000n,
            signatures: ["done-claim-signature"]
          })
        })
        // its next round journals after the expired one (round 0)
        assert.deepStrictEqual(results.expired, { _tag: "Claim", claimable: claimableNow, round: 1 })
        for (const result of Object.values(results)) assert.isTrue(Schema.is(Claim.start.success)(result))
      }))

    it.effect("the journal's writes are the steps': a stage settled through JournalWrites is what the journal reads back", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-steps-keys-")
        const wallets = yield* Effect.forEach([0], (i) => keyFile(dir, `w${i}`))
        const wallet = wallets[0]!.signer.publicKey
        const rows = yield* Effect.gen(function*() {
          yield* JournalWrites.recordSigned.run([stage("k", wallet, "mint", "claim", 5_000n, 1)])
          const signed = yield* Effect.flatMap(Journal.Journal, (journal) => journal.unsettled())
          yield* JournalWrites.settle.run({ signature: "k-claim-signature", fee: 5_000n }, "failed", 9n)
          const settled = yield* Effect.flatMap(Journal.Journal, (journal) => journal.stagesOf("k"))
          return { signed, settled }
        }).pipe(Effect.provide(yield* steps(wallets, {})))
        assert.deepStrictEqual(rows.signed.map((r) => [r.signature, r.status]), [["k-claim-signature", "signed"]])
        assert.deepStrictEqual(rows.settled.map((r) => [r.status, r.slot, r.fee]), [["failed", 9n, 5_000n]])
      }))
  })
})
