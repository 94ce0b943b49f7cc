/**
 * Placement on a cluster: 3 runner processes (`feeshare keeper run --postgres-url`) on a real
 * PostgreSQL server; once they share the wallets, the wallets are owed fees, and every claim's
 * workflow runs on the runner that owns its wallet. The journal tells both apart: a run is
 * recorded by the runner whose pass of the wallet ran the claim, a stage by the runner whose
 * workflow signed it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "./support/fixture.js"
import { kill, postgres, query, startRunner, until } from "./support/runners.js"

describe("Keeper cluster placement (PostgreSQL, 3 runner processes)", () => {
  layer(
    sandboxLayer({
      port: 0,
      slotMillis: 20,
      blockhashValidity: 100_000,
      seed: "keeper-placement",
      rateLimit: 1_000_000
    }),
    { excludeTestServices: true, timeout: "300 seconds" }
  )((it) => {
    it.effect("every claim of a wallet runs on the runner that owns the wallet", () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const { client, server } = yield* postgres
        const dir = temporaryDirectory("keeper-placement-")
        const wallets = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => i), (i) => keyFile(dir, `w${i}`))
        const config = join(dir, "keeper.json")
        writeFileSync(
          config,
          JSON.stringify({
            wallets: wallets.map((w) => ({ keypair: w.path })),
            transactionFormat: "v1",
            intervalSeconds: 1,
            concurrency: 4
          })
        )
        const environment = {
          config,
          postgresUrl: server.url,
          baseUrl: info.baseUrl,
          apiKey: Redacted.value(info.demoApiKey),
          rpcUrl: info.rpcUrl
        }
        const runners = yield* Effect.forEach([0, 1, 2], () => startRunner(environment))
        yield* Effect.promise(() => Promise.all(runners.map((r) => r.printed(/Listening on/))))

        // the three share the wallets (each has passed some since the last one joined) before
        // anything is owed: no shard moves while the claims run
        const joined = Date.now()
        yield* until(
          "the wallets to be shared by the three runners",
          Effect.map(
            query<{ runner: string; started_at: string; finished_at: string | null }>(
              client,
              "SELECT runner, started_at, finished_at FROM keeper_owners"
            ),
            (rows) =>
              rows.length === wallets.length &&
              rows.every((r) => Number(r.started_at) > joined + 3_000 && r.finished_at !== null) &&
              new Set(rows.map((r) => r.runner)).size === 3
          )
        )

        // every wallet owed fees in two of three tokens: 24 claims. The runners are already
        // passing, so the first token's positions may be claimed before the last one is made:
        // what was owed is counted from the claims and from what is left owed at the end.
        yield* positions({ wallets, tokens: 3, claimersPerToken: 8, buySol: (t) => BigInt(t + 1) })
        const claimed = query<{ key: string; wallet: string; mint: string; runner: string }>(
          client,
          "SELECT key, wallet, mint, runner FROM keeper_runs WHERE outcome = 'claimed'"
        )
        yield* until("24 claims", Effect.map(claimed, (rows) => rows.length >= 24))
        yield* Effect.forEach(runners, kill)

        const runs = yield* claimed
        assert.strictEqual(runs.length, 24, "one claimed run per position")
        assert.strictEqual(new Set(runs.map((r) => `${r.wallet}:${r.mint}`)).size, 24, "24 distinct positions")
        const leftOwed = [...(yield* owed(wallets)).values()].flatMap((byMint) =>
          [...byMint.values()].filter((n) => n > 0)
        )
        assert.deepStrictEqual(leftOwed, [], "nothing left owed")
        const stages = yield* query<{ key: string; runner: string }>(client, "SELECT key, runner FROM keeper_stages")
        for (const run of runs) {
          const signers = new Set(stages.filter((s) => s.key === run.key).map((s) => s.runner))
          assert.deepStrictEqual(
            [...signers],
            [run.runner],
            `wallet ${run.wallet}: its pass ran on ${run.runner}, its claim ${run.key} on ${[...signers].join(", ")}`
          )
        }
        // the claims were spread over the runners (each owned some of the wallets)
        assert.strictEqual(new Set(runs.map((r) => r.runner)).size, 3, "claims on every runner")
      }).pipe(Effect.scoped))
  })
})
