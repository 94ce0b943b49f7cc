/**
 * `prepare_token_launch` then `execute`, through the official MCP client against the spawned
 * `feeshare mcp` and a sandbox in this process: the preview shows the split (the handle and
 * its wallet, the wallet), the deployer's share, the config type, rent, fees and the initial
 * buy; `execute` creates the config and launches, reusing the preview's token info. The
 * policy's swap cap refuses an initial buy above it, before anything is made.
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { assert, describe, layer } from "@effect/vitest"
import { FeeShare } from "@feeshare/domain"
import { SandboxApi } from "@feeshare/sandbox/SandboxApi"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { connect, policyFile, sandboxLayer, Seeded } from "./support/fixture.js"

const SOL = 1_000_000_000

const png = readFileSync(new URL("../../cli/assets/demo-token.png", import.meta.url)).toString("base64")

const sandboxApi = Effect.flatMap(
  SandboxInfo,
  (info) => Effect.map(HttpApiClient.make(SandboxApi, { baseUrl: info.rootUrl }), (c) => c.sandbox)
).pipe(Effect.provide(FetchHttpClient.layer))

const tokensNamed = (name: string) =>
  Effect.map(Effect.flatMap(sandboxApi, (s) => s.state()), (state) => state.tokens.filter((t) => t["name"] === name))

describe("feeshare mcp: prepare_token_launch", () => {
  layer(sandboxLayer({ seed: "feeshare-mcp-launch", blockhashValidity: 100_000 }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.scoped("the preview shows split, deployer, config type, rent, fees, initial buy; execute launches it", () =>
      Effect.gen(function*() {
        const seeded = yield* Seeded
        const session = yield* connect([
          "--keypair",
          seeded.keygenPath,
          "--policy",
          policyFile({ maxSwapLamports: SOL / 10 })
        ])
        const name = "Mcp Launch"
        const args = {
          name,
          symbol: "MCPL",
          description: "launched by an agent",
          imageBase64: png,
          shares: [{ provider: "social", username: "sandbox_alice", bps: 4_000 }, {
            wallet: seeded.demoWallet,
            bps: 6_000
          }],
          initialBuyLamports: SOL / 100
        }
        // over the swap cap: refused before anything is made
        const capped = yield* session.call("prepare_token_launch", { ...args, initialBuyLamports: SOL })
        assert.isTrue(capped.isError)
        assert.include(capped.text, "maxSwapLamports")
        assert.strictEqual((yield* tokensNamed(name)).length, 0)

        const prepared = yield* session.call("prepare_token_launch", args)
        assert.isFalse(prepared.isError, prepared.text)
        const preview = prepared.structured
        assert.strictEqual(preview["action"], "token_launch")
        const launch = preview["launch"] as {
          shares: ReadonlyArray<{ label: string; wallet: string; bps: number; handle: boolean }>
          deployer: string
          deployerBps: number
          configType: string
          rentLamports: string
          initialBuyLamports: string
        }
        assert.deepStrictEqual(launch.shares.map((s) => [s.label, s.bps, s.handle]), [
          ["social:sandbox_alice", 4_000, true],
          [seeded.demoWallet, 6_000, false]
        ])
        assert.strictEqual(launch.deployer, seeded.demoWallet)
        assert.strictEqual(launch.deployerBps, FeeShare.deployerBps)
        assert.strictEqual(launch.configType, FeeShare.defaultConfigType)
        assert.isAbove(Number(launch.rentLamports), 0)
        assert.strictEqual(launch.initialBuyLamports, String(SOL / 100))
        assert.isAbove(Number(preview["networkFeesLamports"]), 0)
        assert.include(String(preview["note"]), "25%")
        // the config's two transactions, verified and unsigned: the wallet pays and signs each
        const stages = preview["stages"] as ReadonlyArray<
          {
            kind: string
            requiredSigners: ReadonlyArray<string>
            presigned: ReadonlyArray<string>
            accounts: ReadonlyArray<string>
          }
        >
        assert.deepStrictEqual(stages.map((s) => s.kind), ["config", "config"])
        for (const stage of stages) {
          assert.include(stage.requiredSigners, seeded.demoWallet)
          assert.notInclude(stage.presigned, seeded.demoWallet)
          assert.strictEqual(stage.accounts[0], seeded.demoWallet, "the wallet is the fee payer")
        }
        // the token info is made (free); nothing else yet
        const [made] = yield* tokensNamed(name)
        assert.isFalse(made?.launched)
        // preparing the same launch again reuses it: no second token info
        const again = yield* session.call("prepare_token_launch", args)
        assert.isFalse(again.isError, again.text)
        assert.deepStrictEqual(again.structured["mints"], preview["mints"])
        assert.strictEqual((yield* tokensNamed(name)).length, 1)

        const executed = yield* session.call("execute", { previewId: preview["previewId"] })
        assert.isFalse(executed.isError, executed.text)
        const landed = executed.structured["landed"] as ReadonlyArray<{ kind: string }>
        assert.deepStrictEqual(landed.map((l) => l.kind), ["config", "config", "launch"])
        const after = yield* tokensNamed(name)
        assert.strictEqual(after.length, 1)
        assert.isTrue(after[0]?.launched)
        assert.strictEqual(after[0]?.mint, (preview["mints"] as ReadonlyArray<string>)[0])
        // a preview id works once
        assert.isTrue((yield* session.call("execute", { previewId: preview["previewId"] })).isError)
      }))
  })
})
