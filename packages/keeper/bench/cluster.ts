/**
 * The keeper on a cluster, on one machine: claims per minute of 1 runner against 3, the share
 * of claim time a wallet's runner waits on another, and the failover time after `kill -9`.
 *
 * Each case gets a fresh sandbox with 400 ms slots (the claims wait on the ledger, as on a real
 * cluster, rather than on the two cores the runners share) and a rate limit far above what the
 * runners use, a fresh PostgreSQL database, and runner processes (`feeshare keeper run
 * --postgres-url`) passing 30 wallets every 90 s. Once the runners share the wallets (every
 * wallet passed, nothing owed), the wallets are owed fees in 6 tokens (60 claims): the next round
 * claims them, the shards settled. Times come from the journal: from the first run's start to
 * the last run's end.
 *
 * Cases: 1 runner with `concurrency: 12` against 3 runners with `concurrency: 4` (the same 12
 * claims in flight), 1 runner with `concurrency: 4` (the same per runner), the 3-runner case
 * with the claim workflows placed by their execution id (the engine's default) and their
 * replies polled every 200, 50 and 10 ms, and the single-machine keeper (one pass, in this
 * process, SQLite, `concurrency: 12`) on the same kind of sandbox.
 *
 * Waiting on another runner: a wallet's pass runs on the runner that owns the wallet, its claim
 * workflow on the runner that owns the workflow's shard; when they differ, the wallet's runner
 * waits on the other for the whole claim. The share printed is that waiting time over all
 * claim time.
 *
 * Failover: 3 runners; once 10 claims landed, the runner owning the most wallets with claims
 * still to land is killed with SIGKILL; the time from the kill to the first claim landed for one
 * of those wallets on another runner.
 *
 * Run: npm run bench -w @feeshare/keeper (after the single-machine bench; it builds the runner
 *      executable first, as the tests' global set-up does), or, once built,
 *      npx tsx --conditions=@feeshare/source packages/keeper/bench/cluster.ts
 *      (KEEPER_CLUSTER_CASES=one-12,three-4,single,failover,... picks cases by name)
 */
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Duration, Effect, Layer, Redacted } from "effect"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { executables } from "../../../scripts/test-executables.mjs"
import * as Keeper from "../src/Keeper.js"
import { intervals } from "../src/Settings.js"
import {
  keeper,
  type KeyFile,
  keyFile,
  owed,
  positions,
  sandboxLayer,
  temporaryDirectory
} from "../test/support/fixture.js"
import { kill, postgres, query, type Runner, startRunner, until } from "../test/support/runners.js"

const walletCount = 30
const slotMillis = 400

interface Case {
  readonly name: string
  readonly runners: number
  readonly concurrency: number
  readonly placement: "wallet" | "execution-id"
  readonly replyPollMillis: number
}

/** 30 wallets' key files. */
const walletFiles = (prefix: string) =>
  Effect.gen(function*() {
    const dir = temporaryDirectory(prefix)
    const wallets = yield* Effect.forEach(
      Array.from({ length: walletCount }, (_, i) => i),
      (i) => keyFile(dir, `w${i}`)
    )
    return { dir, wallets }
  })

/** The wallets owed fees on the current sandbox: 6 tokens, 60 claims. */
const owe = (wallets: ReadonlyArray<KeyFile>) =>
  Effect.gen(function*() {
    yield* positions({ wallets, tokens: 6, claimersPerToken: 10, buySol: (t) => BigInt(t + 1) })
    return [...(yield* owed(wallets)).values()].reduce(
      (n, byMint) => n + [...byMint.values()].filter((a) => a > 0).length,
      0
    )
  })

/** Wallets owed fees on the current sandbox: 30 wallets, 6 tokens, 60 claims. */
const setUp = (prefix: string) =>
  Effect.gen(function*() {
    const { dir, wallets } = yield* walletFiles(prefix)
    return { dir, wallets, claims: yield* owe(wallets) }
  })

/**
 * Rounds this far apart: the runners start and share the wallets (their first rounds find
 * nothing owed), the wallets are then owed fees, and the next round claims everything with
 * the shards settled (a start's rebalancing is not what the case measures).
 */
const roundSeconds = 90

const sandbox = (seed: string) => sandboxLayer({ port: 0, slotMillis, seed, rateLimit: 1_000_000 })

const claimedRuns = (client: Parameters<typeof query>[0]) =>
  query<{ key: string; wallet: string; runner: string; started_at: string; at: string }>(
    client,
    "SELECT key, wallet, runner, started_at, at FROM keeper_runs WHERE outcome = 'claimed'"
  )

const runCase = (c: Case) =>
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    const { client, server } = yield* postgres
    const { dir, wallets } = yield* walletFiles(`keeper-cluster-bench-${c.name}-`)
    const config = join(dir, "keeper.json")
    writeFileSync(
      config,
      JSON.stringify({
        wallets: wallets.map((w) => ({ keypair: w.path })),
        transactionFormat: "v1",
        intervalSeconds: roundSeconds,
        concurrency: c.concurrency
      })
    )
    const started = yield* Effect.forEach(Array.from({ length: c.runners }), () =>
      startRunner({
        config,
        postgresUrl: server.url,
        baseUrl: info.baseUrl,
        apiKey: Redacted.value(info.demoApiKey),
        rpcUrl: info.rpcUrl,
        env: { FEESHARE_KEEPER_PLACEMENT: c.placement, FEESHARE_KEEPER_REPLY_POLL_MILLIS: String(c.replyPollMillis) }
      }))
    yield* Effect.promise(() => Promise.all(started.map((r) => r.printed(/Listening on/))))
    // every wallet passed (nothing owed yet) by the runner that owns it once all have joined
    yield* until(
      "the wallets to be shared",
      Effect.map(
        query<{ runner: string; started_at: string; finished_at: string | null }>(
          client,
          "SELECT runner, started_at, finished_at FROM keeper_owners"
        ),
        (rows) =>
          rows.length === walletCount && rows.every((r) => r.finished_at !== null) &&
          new Set(rows.map((r) => r.runner)).size === c.runners
      ),
      "300 seconds"
    )
    const owing = Date.now()
    const claims = yield* owe(wallets)
    const owedAt = Date.now()
    console.log(`(${c.name}: the fees owed in ${((owedAt - owing) / 1000).toFixed(1)} s)`)
    yield* until(
      `${claims} claims`,
      Effect.map(claimedRuns(client), (rows) => rows.length >= claims),
      "600 seconds"
    )
    yield* Effect.forEach(started, kill)
    for (const [i, runner] of started.entries()) writeFileSync(join(dir, `runner-${i}.log`), runner.stderr())
    const runs = yield* claimedRuns(client)
    if (runs.some((r) => Number(r.started_at) < owedAt)) {
      console.log(`(${c.name}: a round began before every position was owed: the time includes part of the set-up)`)
    }
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
    return {
      ...c,
      claims,
      millis: last - first,
      claimMillis: claimTime / runs.length,
      waitShare: claimTime === 0 ? 0 : waiting / claimTime
    }
  }).pipe(Effect.scoped, Effect.provide(sandbox(`keeper-cluster-bench-${c.name}`)))

/** The single-machine keeper: one pass in this process (SQLite), `concurrency: 12`. */
const singleMachine = Effect.gen(function*() {
  const { claims, wallets } = yield* setUp("keeper-cluster-bench-single-")
  const layer = yield* keeper(wallets, { minClaimableLamports: 1, transactionFormat: "v1", concurrency: 12 })
  const context = yield* Layer.build(layer)
  const start = performance.now()
  const report = yield* Keeper.pass.pipe(Effect.provide(context))
  const millis = performance.now() - start
  const landed = report.wallets.flatMap((w) => w.positions).filter((p) => p.outcome === "claimed").length
  if (landed !== claims) return yield* Effect.dieMessage(`keeper claimed ${landed} of ${claims}`)
  return { claims, millis }
}).pipe(Effect.scoped, Effect.provide(sandbox("keeper-cluster-bench-single")))

/** 3 runners; `kill -9` of one mid-run; from the kill to the first claim of its wallets landed elsewhere. */
const failover = Effect.gen(function*() {
  const info = yield* SandboxInfo
  const { client, server } = yield* postgres
  const { claims, dir, wallets } = yield* setUp("keeper-cluster-bench-failover-")
  const config = join(dir, "keeper.json")
  writeFileSync(
    config,
    JSON.stringify({
      wallets: wallets.map((w) => ({ keypair: w.path })),
      transactionFormat: "v1",
      intervalSeconds: 1,
      concurrency: 2
    })
  )
  const environment = {
    config,
    postgresUrl: server.url,
    baseUrl: info.baseUrl,
    apiKey: Redacted.value(info.demoApiKey),
    rpcUrl: info.rpcUrl
  }
  const runners: ReadonlyArray<Runner> = yield* Effect.forEach([0, 1, 2], () => startRunner(environment))
  yield* until("10 claims", Effect.map(claimedRuns(client), (rows) => rows.length >= 10), "600 seconds")
  // the runner owning the most wallets that still have claims to land
  const done = new Set((yield* claimedRuns(client)).map((r) => r.wallet))
  const owners = yield* query<{ wallet: string; runner: string }>(client, "SELECT wallet, runner FROM keeper_owners")
  const pending = (runner: Runner) => owners.filter((o) => o.runner === runner.name && !done.has(o.wallet)).length
  const victim = [...runners].sort((a, b) => pending(b) - pending(a))[0]!
  const orphans = new Set(owners.filter((o) => o.runner === victim.name).map((o) => o.wallet))
  const before = new Set((yield* claimedRuns(client)).map((r) => r.key))
  const killedAt = Date.now()
  yield* kill(victim)
  const firstElsewhere = Effect.map(
    claimedRuns(client),
    (rows) =>
      rows.filter((r) => !before.has(r.key) && orphans.has(r.wallet) && r.runner !== victim.name)
        .map((r) => Number(r.at))
  )
  yield* until("a claim of the killed runner's wallets elsewhere", Effect.map(firstElsewhere, (at) => at.length > 0))
  const landedAt = Math.min(...(yield* firstElsewhere))
  yield* until(`${claims} claims`, Effect.map(claimedRuns(client), (rows) => rows.length >= claims), "600 seconds")
  yield* Effect.forEach(runners, kill)
  return { orphans: orphans.size, pendingAtKill: pending(victim), millis: landedAt - killedAt }
}).pipe(Effect.scoped, Effect.provide(sandbox("keeper-cluster-bench-failover")))

const cases: ReadonlyArray<Case> = [
  { name: "one-12", runners: 1, concurrency: 12, placement: "wallet", replyPollMillis: 200 },
  { name: "three-4", runners: 3, concurrency: 4, placement: "wallet", replyPollMillis: 200 },
  { name: "one-4", runners: 1, concurrency: 4, placement: "wallet", replyPollMillis: 200 },
  { name: "three-4-execution-id-200", runners: 3, concurrency: 4, placement: "execution-id", replyPollMillis: 200 },
  { name: "three-4-execution-id-50", runners: 3, concurrency: 4, placement: "execution-id", replyPollMillis: 50 },
  { name: "three-4-execution-id-10", runners: 3, concurrency: 4, placement: "execution-id", replyPollMillis: 10 }
]

const perMinute = (c: { claims: number; millis: number }) => (c.claims / c.millis) * 60_000

const program = Effect.gen(function*() {
  if (!existsSync(executables.feeshareWithHooks)) {
    return yield* Effect.dieMessage(
      `no runner executable at ${executables.feeshareWithHooks}: npm run bench -w @feeshare/keeper builds it`
    )
  }
  const picked = process.env.KEEPER_CLUSTER_CASES?.split(",")
  const wanted = (name: string) => picked === undefined || picked.includes(name)
  console.log(
    `@feeshare/keeper cluster: ${walletCount} wallets, 6 tokens, v1, slots of ${slotMillis} ms, PostgreSQL ` +
      `(node ${process.version})`
  )
  console.log(
    "| case | runners × concurrency | placement | reply poll | time | claims/min | claim (mean) | waiting on another runner |"
  )
  console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
  const results: Record<string, number> = {}
  for (const c of cases.filter((c) => wanted(c.name))) {
    const r = yield* runCase(c)
    results[c.name] = perMinute(r)
    console.log(
      `| ${r.name} | ${r.runners} × ${r.concurrency} | ${r.placement} | ${r.replyPollMillis} ms | ${
        (r.millis / 1000).toFixed(1)
      } s | ${perMinute(r).toFixed(0)} | ${(r.claimMillis / 1000).toFixed(2)} s | ${(r.waitShare * 100).toFixed(0)} % |`
    )
  }
  if (wanted("single")) {
    const single = yield* singleMachine
    results.single = perMinute(single)
    console.log(
      `| single machine (one pass, SQLite) | 1 × 12 | - | - | ${(single.millis / 1000).toFixed(1)} s | ${
        perMinute(single).toFixed(0)
      } | | |`
    )
  }
  const ratio = (a: string, b: string) =>
    results[a] !== undefined && results[b] !== undefined ? (results[a] / results[b]).toFixed(2) : "n/a"
  console.log(`3 runners / 1 runner, same claims in flight (three-4 / one-12): ${ratio("three-4", "one-12")}x`)
  console.log(`3 runners / 1 runner, same concurrency per runner (three-4 / one-4): ${ratio("three-4", "one-4")}x`)
  console.log(`single machine / 1 runner (single / one-12): ${ratio("single", "one-12")}x`)
  if (wanted("failover")) {
    const f = yield* failover
    const lease = Duration.toMillis(intervals.runnerHealthCheck)
    console.log(
      `failover: kill -9 of a runner owning ${f.orphans} wallets (${f.pendingAtKill} with claims to land) to the ` +
        `first of their claims landed on another runner: ${(f.millis / 1000).toFixed(1)} s ` +
        `(health check and shard lock refresh every ${lease / 1000} s: ${(f.millis / lease).toFixed(2)}x)`
    )
  }
})

Effect.runPromise(program).then(() => process.exit(0), (error: unknown) => {
  console.error(error)
  process.exit(1)
})
