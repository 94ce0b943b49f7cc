/**
 * A service that answers the rebuild of a claim plan with a different plan (here: another
 * token's, a real plan from the sandbox): `execute` lands the previewed setup stages, then stops
 * with `PreviewMismatch` and a new preview id, and signs nothing of the rebuilt plan. The
 * handlers run in the test process, over the sandbox's HTTP API and ledger.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ToolFailure } from "../src/Tools.js"
import { inProcessTools, noClient, sandboxLayer, Seeded } from "./support/fixture.js"

describe("execute against a rebuilt plan that changed", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-mismatch" }), { excludeTestServices: true, timeout: "120 seconds" })(
    (it) => {
      it.scoped("stops with PreviewMismatch and a new preview id; nothing of the rebuilt plan is signed", () =>
        Effect.gen(function*() {
          const [first, second] = (yield* Seeded).tokens
          let plans = 0
          const { real, seeded, tools } = yield* inProcessTools({
            client: (client) => ({
              ...client,
              claims: {
                ...client.claims,
                // the first plan is the one asked for; every rebuild answers for another token
                createPlan: (request) =>
                  client.claims.createPlan(plans++ === 0 ? request : { ...request, tokenMint: second!.mint })
              }
            })
          })
          const owedOnSecond = Effect.map(
            real.claims.positions({ wallet: seeded.demoWallet }),
            (positions) => positions.find((p) => p.baseMint === second!.mint)?.totalClaimableLamportsUserShare
          )
          const before = yield* owedOnSecond

          const { result: prepared } = yield* tools.handle("prepare_claim", { tokenMint: first!.mint })
          if (prepared instanceof ToolFailure) return assert.fail(prepared.message)
          assert.strictEqual(prepared.readiness, "setup_required")
          const stopped = yield* Effect.flip(
            tools.handle("execute", { previewId: prepared.previewId }).pipe(Effect.provide(noClient))
          )
          assert.strictEqual(stopped._tag, "ToolFailure")
          if (stopped._tag !== "ToolFailure") return
          assert.strictEqual(stopped.error, "PreviewMismatch")
          assert.include(stopped.message, "operation changed")
          assert.isString(stopped.newPreviewId)
          // the other token's fees are still owed: nothing of the rebuilt plan was signed
          assert.strictEqual(yield* owedOnSecond, before)
          // the old id is spent; the new one is a preview of what the service now offers
          const spent = yield* Effect.flip(
            tools.handle("execute", { previewId: prepared.previewId }).pipe(Effect.provide(noClient))
          )
          assert.strictEqual(spent._tag === "ToolFailure" ? spent.error : spent._tag, "PreviewUnavailable")
        }))
    }
  )
})
