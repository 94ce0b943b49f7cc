/**
 * The keeper on a cluster, 1 runner against 3, on one machine: claims per minute and the share
 * of time runners wait on each other. Each case gets a fresh sandbox (5 ms slots, a rate limit
 * far above what the runners use) with 30 wallets owed fees in 6 tokens (60 claims), a fresh
 * PostgreSQL database, and runner processes (`feeshare keeper run --postgres-url`). Times come
 * from the journal: from the first run's start to the last run's end.
 *
 * Waiting on each other: a wallet's pass runs on the runner that owns the wallet, its claim
 * workflow on the runner that owns the workflow's shard; when they differ, the wallet's runner
 * waits on the other for the whole claim. The share printed is that waiting time over all
 * claim time.
 *
 * Run: npm run bench -w @feeshare/keeper (after the single-machine bench), or
 *      npx tsx --conditions=@feeshare/source packages/keeper/bench/cluster.ts
 */
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "../test/support/fixture.js"
import { kill, postgres, query, startRunner, until } from "../test/support/runners.js"

const walletCount = 30

const runCase = (runners: number) =>
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    const { client, server } = yield* postgres
    const dir = temporaryDirectory("keeper-cluster-bench-")
    const wallets = yield* Effect.forEach(
      Array.from({ length: walletCount }, (_, i) => i),
      (i) => keyFile(dir, `w${i}`)
    )
    yield* positions({ wallets, tokens: 6, claimersPerToken: 10, buySol: (t) => BigInt(t + 1) })
    const claims = [...(yield* owed(wallets)).values()].reduce(
      (n, byMint) => n + [...byMint.values()].filter((a) => a > 0).length,
      0
    )
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
    const started = yield* Effect.forEach(Array.from({ length: runners }), () =>
      startRunner({
        config,
        postgresUrl: server.url,
        baseUrl: info.baseUrl,
        apiKey: Redacted.value(info.demoApiKey),
        rpcUrl: info.rpcUrl
      }))
    yield* until(
      `${claims} claims`,
      Effect.map(
        query<{ n: string }>(client, "SELECT COUNT(*) AS n FROM keeper_runs WHERE outcome = 'claimed'"),
        (rows) => Number(rows[0]?.n) >= claims
      ),
      "300 seconds"
    )
    yield* Effect.forEach(started, kill)
    const runs = yield* query<{ key: string; runner: string; started_at: string; at: string }>(
      client,
      "SELECT key, runner, started_at, at FROM keeper_runs WHERE outcome = 'claimed'"
    )
    const stageRunner = new Map(
      (yield* query<{ key: string; runner: string }>(client, "SELECT DISTINCT key, runner FROM keeper_stages")).map((
        r
      ) => [r.key, r.runner])
    )
    const first = Math.min(...runs.map((r) => Number(r.started_at)))
    const last = Math.max(...runs.map((r) => Number(r.at)))
    let claimTime = 0
    let waiting = 0
    for (const run of runs) {
      const span = Number(run.at) - Number(run.started_at)
      claimTime += span
      if (stageRunner.get(run.key) !== run.runner) waiting += span
    }
    return { runners, claims, millis: last - first, waitShare: claimTime === 0 ? 0 : waiting / claimTime }
  }).pipe(
    Effect.scoped,
    Effect.provide(
      sandboxLayer({ port: 0, slotMillis: 5, seed: `keeper-cluster-bench-${runners}`, rateLimit: 1_000_000 })
    )
  )

const program = Effect.gen(function*() {
  const one = yield* runCase(1)
  const three = yield* runCase(3)
  const perMinute = (c: { claims: number; millis: number }) => (c.claims / c.millis) * 60_000
  console.log(
    `@feeshare/keeper cluster: ${one.claims} claims (${walletCount} wallets, 6 tokens, v1), slots of 5 ms, PostgreSQL`
  )
  console.log("runners  time      claims/min  waiting on another runner")
  for (const c of [one, three]) {
    console.log(
      `${String(c.runners).padEnd(8)} ${`${(c.millis / 1000).toFixed(1)} s`.padEnd(9)} ${
        perMinute(c).toFixed(0).padEnd(11)
      } ${(c.waitShare * 100).toFixed(0)} %`
    )
  }
  console.log(`3 runners / 1 runner: ${(perMinute(three) / perMinute(one)).toFixed(2)}x the claims per minute`)
})

Effect.runPromise(program).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
