/**
 * `feeshare demo` as CI runs it: a spawned process that starts its own sandbox and exits 0.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { document, feeshare } from "./support/spawn.js"

describe("feeshare demo (spawned)", () => {
  it.live("walks through every step and exits 0; --json prints one summary document", () =>
    Effect.gen(function*() {
      const [human, json] = yield* Effect.all([feeshare(["demo"]), feeshare(["demo", "--json"])], { concurrency: 2 })

      assert.strictEqual(human.code, 0, human.stderr)
      for (
        const heading of [
          "1. Wallets",
          "2. Log in",
          "4. Launch",
          "5. Trades",
          "6. Claimable positions",
          "7. Claim",
          "8. Analytics",
          "Summary"
        ]
      ) {
        assert.include(human.stdout, heading)
      }
      assert.match(human.stdout, /readiness setup_required/)
      assert.match(human.stdout, /claim\s+claim\s+landed\s+\S+ slot \d+/)
      assert.match(human.stdout, /plan complete: 4 stage\(s\) landed/)

      assert.strictEqual(json.code, 0, json.stderr)
      const summary = document(json) as {
        transactionsLanded: number
        lifetimeFeesLamports: string
        claimedByBLamports: string
        claimPlan: { firstReadiness: string; stages: Array<{ kind: string }> }
      }
      assert.strictEqual(summary.claimPlan.firstReadiness, "setup_required")
      assert.deepStrictEqual(summary.claimPlan.stages.map((s) => s.kind).sort(), [
        "claim",
        "config",
        "lookup_table_setup",
        "lookup_table_setup"
      ])
      assert.strictEqual(summary.transactionsLanded, 1 + 3 + summary.claimPlan.stages.length)
      // claimer B holds 30% of the fee share
      assert.strictEqual(BigInt(summary.claimedByBLamports), (BigInt(summary.lifetimeFeesLamports) * 3_000n) / 10_000n)
    }))
})
