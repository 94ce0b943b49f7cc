/**
 * A service that answers the rebuild of a claim plan with a different plan (here: another
 * token's, a real plan from the sandbox): `execute` lands the previewed setup stages, then stops
 * with `PreviewMismatch` and a new preview id, and signs nothing of the rebuilt plan. The
 * handlers run in the test process, over the sandbox's HTTP API and ledger.
 */
import { McpSchema } from "@effect/ai"
import { FetchHttpClient } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { assert, describe, layer } from "@effect/vitest"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
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

describe("execute against a rebuilt plan that changed", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-mismatch" }), { excludeTestServices: true, timeout: "120 seconds" })(
    (it) => {
      it.scoped("stops with PreviewMismatch and a new preview id; nothing of the rebuilt plan is signed", () =>
        Effect.gen(function*() {
          const seeded = yield* Seeded
          const info = yield* SandboxInfo
          const [first, second] = seeded.tokens
          const real = yield* FeeShareClient.make({ baseUrl: info.baseUrl, apiKey: info.demoApiKey }).pipe(
            Effect.provide(FetchHttpClient.layer)
          )
          let plans = 0
          const changing: FeeShareClient.FeeShareClient.Service = {
            ...real,
            claims: {
              ...real.claims,
              // the first plan is the one asked for; every rebuild answers for another token
              createPlan: (request) =>
                real.claims.createPlan(plans++ === 0 ? request : { ...request, tokenMint: second!.mint })
            }
          }
          const signer = yield* LocalSigner.fromKeygenFile(seeded.keygenPath).pipe(Effect.provide(NodeFileSystem.layer))
          const environment = Layer.succeed(Handlers.Environment, {
            policy: yield* WritePolicy.decode({}),
            signers: [signer],
            hasApiKey: true,
            clientWith: () => Effect.dieMessage("no login in this test"),
            warmupInterval: "100 millis"
          })
          const tools = yield* toolkit.pipe(
            Effect.provide(Handlers.layer.pipe(
              Layer.provide(Layer.mergeAll(
                Layer.succeed(FeeShareClient.FeeShareClient, changing),
                ChainRpc.layer(info.rpcUrl, { pollInterval: "40 millis" }),
                environment
              ))
            ))
          )
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
