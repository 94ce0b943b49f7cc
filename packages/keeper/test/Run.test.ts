/**
 * `feeshare keeper run` on one machine (a process, SQLite journal): it passes forever,
 * `intervalSeconds` apart; the first pass claims every position, the next ones claim nothing,
 * the metrics file is rewritten after each pass, and a SIGTERM ends it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "./support/fixture.js"
import { startRunner } from "./support/runners.js"

describe("keeper run (one machine)", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-run" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect("passes forever: the first pass claims everything, later passes claim nothing, metrics after each pass", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const dir = temporaryDirectory("keeper-run-")
        const wallets = yield* Effect.forEach([0, 1, 2, 3], (i) => keyFile(dir, `w${i}`))
        yield* positions({ wallets, tokens: 1, claimersPerToken: 4, buySol: () => 2n })
        const config = join(dir, "keeper.json")
        writeFileSync(
          config,
          JSON.stringify({
            wallets: wallets.map((w) => ({ keypair: w.path })),
            transactionFormat: "v1",
            intervalSeconds: 1
          })
        )
        const metrics = join(dir, "keeper.prom")
        const runner = yield* startRunner({
          config,
          args: ["--metrics-file", metrics],
          baseUrl: info.baseUrl,
          apiKey: Redacted.value(info.demoApiKey),
          rpcUrl: info.rpcUrl
        })
        yield* Effect.promise(() => runner.printed(/pass done \(claimed=4, wallets=4\)/))
        // two more passes, each finding nothing
        yield* Effect.promise(() =>
          runner.printed(/pass done \(claimed=0, wallets=4\)[\s\S]*pass done \(claimed=0, wallets=4\)/)
        )
        assert.match(readFileSync(metrics, "utf8"), /feeshare_keeper_claims_landed_total 4\b/)
        const after = yield* owed(wallets)
        assert.isTrue([...after.values()].every((byMint) => [...byMint.values()].every((n) => n === 0)))
        assert.strictEqual(runner.stderr().match(/position claimed/g)?.length, 4)

        const exit = yield* Effect.promise(() =>
          new Promise<{ code: number | null; signal: string | null }>((done) => {
            runner.child.once("exit", (code, signal) => done({ code, signal }))
            runner.child.kill("SIGTERM")
          })
        )
        assert.isTrue(exit.code !== null || exit.signal === "SIGTERM", JSON.stringify(exit))
      }))
  })
})
