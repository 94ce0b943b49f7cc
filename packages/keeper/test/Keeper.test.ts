/**
 * One keeper, 20 wallets with positions across 5 tokens on a sandbox ledger: everything
 * above the threshold is claimed, balances rise by exactly what was owed, a second pass
 * claims nothing, and `status` reads it all back from the journal.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Keeper from "../src/Keeper.js"
import * as Metrics from "../src/Metrics.js"
import * as Status from "../src/Status.js"
import { keeper, keyFile, owed, positions, sandboxLayer, temporaryDirectory, wsolBalance } from "./support/fixture.js"

/** `feeshare_keeper_claims_landed_total` in a Prometheus exposition (0 before any claim). */
const landedTotal = (exposition: string): number =>
  Number(/^feeshare_keeper_claims_landed_total (\d+)$/m.exec(exposition)?.[1] ?? 0)

describe("Keeper", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-20" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect("20 wallets, 5 tokens: claims everything above the threshold, exactly what was owed; a second pass claims nothing", () =>
      Effect.gen(function*() {
        const dir = temporaryDirectory("keeper-20-")
        const wallets = yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), (i) => keyFile(dir, `w${i}`))
        const mints = yield* positions({ wallets, tokens: 5, claimersPerToken: 8, buySol: (t) => BigInt(t + 1) })
        const before = yield* owed(wallets)
        // every wallet has two positions; token 0's are the smallest: the threshold leaves them alone
        const amountOf = (mint: string) => [...before.values()].map((m) => m.get(mint) ?? 0).find((n) => n > 0) ?? 0
        const threshold = amountOf(mints[1]!)
        assert.isTrue(
          amountOf(mints[0]!) > 0 && amountOf(mints[0]!) < threshold,
          `token 0 owes ${amountOf(mints[0]!)} < ${threshold}`
        )
        const balances = yield* Effect.forEach(wallets, (w) => wsolBalance(w.signer.publicKey))

        const keeperLayer = yield* keeper(wallets, { minClaimableLamports: threshold, transactionFormat: "v0" })
        // the metrics are the process's: what this test's keeper added to them counts
        const landedBefore = landedTotal(yield* Metrics.prometheus)
        const [first, second, status, metrics] = yield* Effect.gen(function*() {
          const first = yield* Keeper.pass
          const second = yield* Keeper.pass
          const status = yield* Status.read
          const metrics = yield* Metrics.prometheus
          return [first, second, status, metrics] as const
        }).pipe(Effect.provide(keeperLayer))

        // first pass: every position above the threshold, claimed
        let claims = 0
        for (const [i, wallet] of wallets.entries()) {
          const report = first.wallets.find((w) => w.wallet === wallet.signer.publicKey)
          assert.isDefined(report)
          assert.isNull(report?.error ?? null)
          const expected = [...(before.get(wallet.signer.publicKey) ?? new Map<string, number>()).entries()]
            .filter(([, amount]) => amount >= threshold)
          assert.deepStrictEqual(
            report!.positions.map((p) => [p.mint, p.outcome, p.tag]).sort(),
            expected.map(([mint]) => [mint, "claimed", null]).sort()
          )
          claims += expected.length
          const owedTotal = expected.reduce((sum, [, amount]) => sum + BigInt(amount), 0n)
          const after = yield* wsolBalance(wallet.signer.publicKey)
          assert.strictEqual(after - balances[i]!, owedTotal, `wallet ${i}: balance rose by exactly what was owed`)
        }
        assert.strictEqual(claims, 32) // 4 tokens above the threshold x 8 claimers
        // what stays: only token 0's positions, untouched
        const after = yield* owed(wallets)
        for (const [wallet, byMint] of after) {
          for (const [mint, amount] of byMint) {
            if (mint === mints[0]) assert.strictEqual(amount, before.get(wallet)?.get(mint))
            else assert.strictEqual(amount, 0, `${wallet} ${mint}`)
          }
        }

        // second pass: nothing to claim
        assert.deepStrictEqual(second.wallets.flatMap((w) => w.positions), [])
        assert.deepStrictEqual(second.reconciled, { landed: 0, rebroadcast: 0, dead: 0 })

        // status: per wallet, claims and totals; nothing pending, no failure
        assert.strictEqual(status.length, 20)
        assert.strictEqual(status.reduce((n, s) => n + s.claims, 0), 32)
        for (const s of status) {
          assert.deepStrictEqual([s.pending.length, s.failures.length], [0, 0])
          assert.isNotNull(s.lastRunAt)
          assert.isTrue(s.feesLamports > 0n)
        }
        assert.strictEqual(landedTotal(metrics) - landedBefore, 32, metrics)
      }))
  })
})
