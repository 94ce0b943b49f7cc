/**
 * Policy on a sandbox that serves hostile plans: dry-run signs nothing, the fee cap stops
 * spending, and plans tampered by `--tamper` are refused and reported with nothing signed.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Keeper from "../src/Keeper.js"
import * as Status from "../src/Status.js"
import {
  keeper,
  keyFile,
  owed,
  positions,
  sandboxLayer,
  solBalance,
  temporaryDirectory,
  wsolBalance
} from "./support/fixture.js"

describe("Keeper policy", () => {
  // the first two plans are tampered with (one stage's bytes no longer match its hash), then honest ones
  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-safety", tamper: [{ kind: "wrong-hash", plans: 2 }] }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect("tampered plans are refused with their tag, nothing signed; dry-run signs nothing; the fee cap stops spending", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-safety-")
        const wallets = yield* Effect.forEach([0, 1], (i) => keyFile(dir, `w${i}`))
        yield* positions({ wallets, tokens: 1, claimersPerToken: 2, buySol: () => 2n })
        const before = yield* owed(wallets)
        const sol = yield* Effect.forEach(wallets, (w) => solBalance(w.signer.publicKey))

        // two hostile plans (one per wallet): refused before any signature, reported with the tag
        const hostile = yield* Effect.gen(function*() {
          const report = yield* Keeper.pass
          const status = yield* Status.read
          return { report, status }
        }).pipe(Effect.provide(yield* keeper(wallets, { transactionFormat: "v1", concurrency: 1 })))
        const refused = hostile.report.wallets.flatMap((w) => w.positions)
        assert.deepStrictEqual(refused.map((p) => [p.outcome, p.tag]), [["refused", "MessageHashMismatch"], [
          "refused",
          "MessageHashMismatch"
        ]])
        assert.deepStrictEqual(refused.map((p) => p.signatures.length), [0, 0])
        assert.deepStrictEqual(hostile.status.map((s) => s.failures.map((f) => f.tag)), [["MessageHashMismatch"], [
          "MessageHashMismatch"
        ]])
        assert.deepStrictEqual(hostile.status.map((s) => s.pending.length), [0, 0])
        // nothing signed, so nothing paid
        assert.deepStrictEqual(yield* Effect.forEach(wallets, (w) => solBalance(w.signer.publicKey)), sol)

        // dry run (honest plans from here on): verified and reported, nothing signed or sent
        const dry = yield* Keeper.pass.pipe(
          Effect.provide(yield* keeper(wallets, { transactionFormat: "v1", dryRun: true }))
        )
        assert.deepStrictEqual(dry.wallets.flatMap((w) => w.positions).map((p) => p.outcome), ["dry-run", "dry-run"])
        assert.deepStrictEqual(yield* Effect.forEach(wallets, (w) => solBalance(w.signer.publicKey)), sol)
        assert.deepStrictEqual(yield* owed(wallets), before)

        // a fee cap that covers one claim (2 stages of 1 signature each and their priority fees), not two
        const capped = yield* Effect.gen(function*() {
          const first = yield* Keeper.pass
          return first
        }).pipe(
          Effect.provide(
            yield* keeper(wallets, { transactionFormat: "v1", concurrency: 1, maxFeesPerHourLamports: 40_000 })
          )
        )
        const outcomes = capped.wallets.flatMap((w) => w.positions).map((p) => [p.outcome, p.tag])
        assert.deepStrictEqual(outcomes, [["claimed", null], ["fee-cap", "FeeCapReached"]])
        const [claimed, stopped] = wallets
        assert.isTrue((yield* wsolBalance(claimed!.signer.publicKey)) > 0n)
        assert.strictEqual(yield* wsolBalance(stopped!.signer.publicKey), 0n)
        assert.strictEqual(yield* solBalance(stopped!.signer.publicKey), sol[1])
      }))
  })
})
