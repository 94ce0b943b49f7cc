/**
 * `feeshare demo` as CI runs it: a spawned process that starts its own sandbox and exits 0.
 */
import { assert, describe, it } from "@effect/vitest"
import { BasisPoints, FeeShare } from "@feeshare/domain"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { demoImage } from "../src/internal/demoImage.js"
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
          "4. Launch from nothing",
          "5. Trades",
          "6. Claimable positions",
          "7. Claim",
          "8. Analytics",
          "Summary"
        ]
      ) {
        assert.include(human.stdout, heading)
      }
      // the launch went through the flow: the split with the handle, token info, config, launch
      assert.match(human.stdout, /social:sandbox_alice -> \S+\s+2000 bps \(20%\)/)
      assert.match(human.stdout, /token-info\s+done\s+mint \S+/)
      assert.match(human.stdout, /config\s+done\s+config key \S+/)
      assert.match(human.stdout, /launch\s+done\s+launched \S+ at slot \d+/)
      assert.match(human.stdout, /readiness setup_required/)
      assert.match(human.stdout, /claim\s+claim\s+landed\s+\S+ slot \d+/)
      assert.match(human.stdout, /plan complete: 4 stage\(s\) landed/)

      assert.strictEqual(json.code, 0, json.stderr)
      const summary = document(json) as {
        transactionsLanded: number
        lifetimeFeesLamports: string
        claimedByBLamports: string
        launch: { signature: string; handle: string }
        claimPlan: { firstReadiness: string; stages: Array<{ kind: string }> }
      }
      assert.strictEqual(summary.claimPlan.firstReadiness, "setup_required")
      assert.deepStrictEqual(summary.claimPlan.stages.map((s) => s.kind).sort(), [
        "claim",
        "config",
        "lookup_table_setup",
        "lookup_table_setup"
      ])
      assert.strictEqual(summary.launch.handle, "social:sandbox_alice")
      assert.isString(summary.launch.signature)
      // the config's two transactions, the launch, three swaps, the claim plan's stages
      assert.strictEqual(summary.transactionsLanded, 2 + 1 + 3 + summary.claimPlan.stages.length)
      // claimer B holds 30% of the claimers' pool, after the deployer's 25%
      const pool = BigInt(summary.lifetimeFeesLamports)
      const deployer = (pool * BigInt(FeeShare.deployerBps)) / 10_000n
      assert.strictEqual(
        BigInt(summary.claimedByBLamports),
        BasisPoints.split(pool - deployer, [5_000, 3_000, 2_000])[1]
      )
    }))
})

describe("the demo's image", () => {
  it("is the committed PNG, byte for byte", () => {
    const file = new Uint8Array(readFileSync(new URL("../assets/demo-token.png", import.meta.url)))
    assert.deepStrictEqual(demoImage, file)
  })
})
