/**
 * `prepare_claim` takes every option of a claim plan, the transaction format included (the
 * policy's format is only its default), and refuses options that contradict each other with
 * `InvalidRequest` naming the field and the rule, before the service is asked. The handlers
 * run in the test process, over the sandbox's HTTP API and ledger.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Claims } from "@feeshare/domain"
import { Effect } from "effect"
import { ToolFailure } from "../src/Tools.js"
import { inProcessTools, noClient, sandboxLayer } from "./support/fixture.js"

/** The tools over the sandbox (or a client of `baseUrl`), with a policy whose format is v0. */
const sandboxTools = (baseUrl?: string) =>
  inProcessTools({ policy: { transactionFormat: "v0" }, ...(baseUrl === undefined ? {} : { baseUrl }) })

describe("prepare_claim: every plan option", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-plan-options" }), { excludeTestServices: true, timeout: "120 seconds" })(
    (it) => {
      it.scoped("transactionFormat v1 overrides the policy's v0: every stage v1, verified as v1, and it lands", () =>
        Effect.gen(function*() {
          const { real, seeded, tools } = yield* sandboxTools()
          const owed = (yield* real.claims.positions({ wallet: seeded.demoWallet })).find((p) =>
            p.totalClaimableLamportsUserShare > 0
          )
          assert.isDefined(owed, "the seeded demo wallet is owed fees")
          const token = { mint: owed!.baseMint }
          const { result: prepared } = yield* tools.handle("prepare_claim", {
            tokenMint: token.mint,
            transactionFormat: "v1"
          })
          if (prepared instanceof ToolFailure) return assert.fail(prepared.message)
          assert.include(prepared.verification.checks, "format v1")
          assert.strictEqual(prepared.readiness, "ready", "v1 plans need no lookup-table setup")
          const { result: executed } = yield* tools.handle("execute", { previewId: prepared.previewId }).pipe(
            Effect.provide(noClient)
          )
          if (executed instanceof ToolFailure) return assert.fail(executed.message)
          assert.isTrue(executed.landed.some((stage) => stage.kind === "claim"))
          const after = (yield* real.claims.positions({ wallet: seeded.demoWallet })).find((p) =>
            p.baseMint === token.mint
          )
          assert.isTrue(after === undefined || after.totalClaimableLamportsUserShare === 0)
          // the claim_events read tool lists it: the wallet, the amount owed, the landed signature
          const { result: listed } = yield* tools.handle("claim_events", { tokenMint: token.mint, limit: 10 })
          if (listed instanceof ToolFailure) return assert.fail(listed.message)
          const claimSignature = executed.landed.find((stage) => stage.kind === "claim")?.signature
          assert.deepStrictEqual(
            listed.events.filter((e) => e.signature === claimSignature).map((e) => [e.wallet, e.amount]),
            [[seeded.demoWallet, BigInt(owed!.totalClaimableLamportsUserShare)]]
          )
        }))

      it.scoped("options that contradict each other: InvalidRequest with the field and the rule; nothing is sent", () =>
        Effect.gen(function*() {
          // a base URL nothing listens on: a request that went out would fail as a transport error
          const { seeded, tools } = yield* sandboxTools("http://127.0.0.1:9/api/v1")
          const tokenMint = seeded.tokens[0]!.mint
          const quoteMint = seeded.tokens[1]!.mint
          const cases = [
            [{ quoteMint: tokenMint }, "quoteMint", Claims.planRules.quoteMint],
            [
              { transactionFormat: "v1", additionalLookupTables: [quoteMint] },
              "additionalLookupTables",
              Claims.planRules.lookupTablesFormat
            ],
            [
              { additionalLookupTables: [quoteMint, quoteMint] },
              "additionalLookupTables[1]",
              Claims.planRules.duplicateLookupTable
            ]
          ] as const
          for (const [options, field, rule] of cases) {
            const { result } = yield* tools.handle("prepare_claim", { tokenMint, ...options }).pipe(
              Effect.catchAll((failure) => Effect.succeed({ result: failure }))
            )
            assert.instanceOf(result, ToolFailure, field)
            if (!(result instanceof ToolFailure)) continue
            assert.deepStrictEqual([result.error, result.field, result.rule], ["InvalidRequest", field, rule])
          }
        }))
    }
  )
})
