/**
 * `prepare_claim` takes every option of a claim plan, the transaction format included (the
 * policy's format is only its default), and refuses options that contradict each other with
 * `InvalidRequest` naming the field and the rule, before the service is asked. The handlers
 * run in the test process, over the sandbox's HTTP API and ledger.
 */
import { McpSchema } from "@effect/ai"
import { FetchHttpClient } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
import { Claims } from "@feeshare/domain"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Effect, Layer } from "effect"
import * as Handlers from "../src/Handlers.js"
import { ToolFailure, toolkit } from "../src/Tools.js"
import * as WritePolicy from "../src/WritePolicy.js"
import { sandboxLayer, Seeded } from "./support/fixture.js"

/** The client of an MCP session that never asks anything of its human (askHuman is off). */
const noClient = Layer.succeed(McpSchema.McpServerClient, {
  clientId: 0,
  getClient: Effect.dieMessage("this test has no MCP client")
})

/**
 * The tools over the sandbox (or a client of `baseUrl`), with the seeded demo wallet and a
 * policy whose format is v0.
 */
const sandboxTools = (baseUrl?: string) =>
  Effect.gen(function*() {
    const seeded = yield* Seeded
    const info = yield* SandboxInfo
    const real = yield* FeeShareClient.make({ baseUrl: baseUrl ?? info.baseUrl, apiKey: info.demoApiKey }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const signer = yield* LocalSigner.fromKeygenFile(seeded.keygenPath).pipe(Effect.provide(NodeFileSystem.layer))
    const environment = Layer.succeed(Handlers.Environment, {
      policy: yield* WritePolicy.decode({ transactionFormat: "v0" }),
      signers: [signer],
      hasApiKey: true,
      clientWith: () => Effect.dieMessage("no login in this test"),
      warmupInterval: "100 millis"
    })
    const tools = yield* toolkit.pipe(
      Effect.provide(Handlers.layer.pipe(
        Layer.provide(Layer.mergeAll(
          Layer.succeed(FeeShareClient.FeeShareClient, real),
          ChainRpc.layer(info.rpcUrl, { pollInterval: "40 millis" }),
          environment
        ))
      ))
    )
    return { tools, seeded, real }
  })

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
