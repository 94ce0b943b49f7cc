/**
 * `prepare_claim_all`: the seeded demo wallet's positions and deployer positions found, every
 * transaction verified and shown with its fee, nothing signed; `execute` claims them all (each
 * answer's fees counted against the day's cap first), and a second preview finds nothing. The
 * policy's `allowedMints` and fee cap refuse it, naming the rule. The handlers run in the test
 * process, over the sandbox's HTTP API and ledger.
 */
import { assert, describe, layer } from "@effect/vitest"
import * as Seed from "@feeshare/sandbox/Seed"
import { Effect } from "effect"
import { ToolFailure } from "../src/Tools.js"
import { inProcessTools, noClient, sandboxLayer } from "./support/fixture.js"

describe("prepare_claim_all and execute", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-claim-all" }), { excludeTestServices: true, timeout: "120 seconds" })(
    (it) => {
      it.scoped("every item verified and nothing signed; execute claims them all; then nothing is owed", () =>
        Effect.gen(function*() {
          const { real, seeded, tools } = yield* inProcessTools()
          const owed = Effect.map(
            real.claims.positions({ wallet: seeded.demoWallet }),
            (positions) => positions.reduce((sum, p) => sum + p.totalClaimableLamportsUserShare, 0)
          )
          const before = yield* owed
          assert.isAbove(before, 0)

          const { result: prepared } = yield* tools.handle("prepare_claim_all", {})
          if (prepared instanceof ToolFailure) return assert.fail(prepared.message)
          assert.strictEqual(prepared.action, "claim_all")
          const items = prepared.claimAll?.items ?? []
          assert.deepStrictEqual([...new Set(items.map((item) => item.kind))].sort(), ["deployer", "position"])
          assert.isTrue(items.every((item) => item.state === "verified"), JSON.stringify(items))
          assert.isTrue(prepared.verification.verified)
          // each transaction shown with its fee, and the preview's fees are their sum
          assert.isAtLeast(prepared.stages.length, items.length)
          assert.strictEqual(
            prepared.networkFeesLamports,
            String(prepared.stages.reduce((sum, stage) => sum + BigInt(stage.networkFeeLamports), 0n))
          )
          assert.isAbove(Number(prepared.networkFeesLamports), 0)
          // nothing was signed
          assert.strictEqual(yield* owed, before)

          const { result: executed } = yield* tools.handle("execute", { previewId: prepared.previewId }).pipe(
            Effect.provide(noClient)
          )
          if (executed instanceof ToolFailure) return assert.fail(executed.message)
          const claimed = executed.claimAll?.items ?? []
          assert.isTrue(claimed.every((item) => item.state === "claimed"), JSON.stringify(claimed))
          assert.deepStrictEqual(claimed.map((item) => item.subject), items.map((item) => item.subject))
          assert.isAtLeast(executed.landed.length, items.length)
          for (const landed of executed.landed) assert.match(landed.slot, /^[1-9]\d*$/, landed.signature)
          assert.strictEqual(yield* owed, 0)

          const { result: again } = yield* tools.handle("prepare_claim_all", {})
          if (again instanceof ToolFailure) return assert.fail(again.message)
          assert.strictEqual(again.note, "Nothing to claim.")
          assert.isTrue((again.claimAll?.items ?? []).every((item) => item.state === "nothing"))
          assert.strictEqual(again.networkFeesLamports, "0")
          // the executed id is spent
          const spent = yield* Effect.flip(
            tools.handle("execute", { previewId: prepared.previewId }).pipe(Effect.provide(noClient))
          )
          assert.strictEqual(spent._tag === "ToolFailure" ? spent.error : spent._tag, "PreviewUnavailable")
        }))

      it.scoped("refused while allowedMints is set, and when its fees pass the day's cap, naming the rule", () =>
        Effect.gen(function*() {
          const restricted = yield* inProcessTools({ policy: { allowedMints: [] } })
          const mints = yield* Effect.flip(restricted.tools.handle("prepare_claim_all", {}))
          assert.deepStrictEqual(
            mints._tag === "ToolFailure" ? [mints.error, mints.rule] : [mints._tag],
            ["PolicyViolation", "allowedMints"]
          )
          // fees of its own for the demo wallet (whatever another test claimed): a token paying it all, bought
          yield* Seed.feeShareToken({
            symbol: "CAP",
            claimers: [{ wallet: restricted.seeded.demoWallet, bps: 10_000 }],
            buys: [{ lamports: 1_000_000_000n }]
          }).pipe(Effect.orDie)
          const capped = yield* inProcessTools({ policy: { maxNetworkFeesPerDayLamports: 1 } })
          const fees = yield* Effect.flip(capped.tools.handle("prepare_claim_all", {}))
          assert.deepStrictEqual(
            fees._tag === "ToolFailure" ? [fees.error, fees.rule] : [fees._tag],
            ["PolicyViolation", "maxNetworkFeesPerDayLamports"]
          )
        }))
    }
  )
})
