/**
 * Claims per minute of one keeper pass against a bare loop of `PlanExecutor.execute` calls
 * (build the plan, verify, sign, send, confirm: no journal, no workflow), on the same kind of
 * sandbox started with 5 ms slots so that confirmation time does not hide the journal's cost.
 * Each round runs on a fresh sandbox with the same positions; keeper and bare rounds
 * alternate; medians are printed with their ratio and spread (target: keeper pass ≤ 1.3× the
 * bare loop). The keeper's start (opening its SQLite file, migrating it, starting the
 * workflow engine) is timed apart from its pass: a keeper starts once and passes forever.
 *
 * Run: npm run bench -w @feeshare/keeper
 */
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import * as PlanExecutor from "@feeshare/solana/PlanExecutor"
import * as Signers from "@feeshare/solana/Signers"
import { Effect, Layer } from "effect"
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { join } from "node:path"
import * as Keeper from "../src/Keeper.js"
import { keeper, keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "../test/support/fixture.js"

const walletCount = 10
const tokens = 2
const claimersPerToken = 5
// one round's ratio swings by ±0.3 on a quiet machine: the median of 21 moves by a few hundredths
const rounds = Number(process.env.KEEPER_BENCH_ROUNDS ?? 21)

/** A sandbox with `walletCount` wallets owed fees in `tokens` tokens. */
const setUp = Effect.gen(function*() {
  const dir = temporaryDirectory("keeper-bench-")
  const wallets = yield* Effect.forEach(Array.from({ length: walletCount }, (_, i) => i), (i) => keyFile(dir, `w${i}`))
  yield* positions({ wallets, tokens, claimersPerToken, buySol: () => 2n })
  const before = yield* owed(wallets)
  const claims = [...before.values()].reduce((n, byMint) => n + [...byMint.values()].filter((a) => a > 0).length, 0)
  return { wallets, claims }
})

/** Where CPU profiles of the timed parts go (`KEEPER_BENCH_CPU_DIR`, unset: none are taken). */
const profileDirectory = process.env.KEEPER_BENCH_CPU_DIR
let profiles = 0

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>, label: string) =>
  Effect.gen(function*() {
    const session = profileDirectory === undefined ? undefined : new Session()
    if (session !== undefined) {
      session.connect()
      yield* Effect.promise(() => session.post("Profiler.enable").then(() => session.post("Profiler.start")))
    }
    const start = performance.now()
    const cpu = process.cpuUsage()
    const result = yield* effect
    const used = process.cpuUsage(cpu)
    const millis = performance.now() - start
    if (session !== undefined && profileDirectory !== undefined) {
      const { profile } = yield* Effect.promise(() => session.post("Profiler.stop"))
      writeFileSync(join(profileDirectory, `${++profiles}-${label}.cpuprofile`), JSON.stringify(profile))
      session.disconnect()
    }
    return { result, millis, cpuMillis: (used.user + used.system) / 1000 }
  })

const keeperRound = Effect.gen(function*() {
  const { claims, wallets } = yield* setUp
  // positions only, as the bare loop: no deployer listing or sweeps (their wallets have none)
  const layer = yield* keeper(wallets, { minClaimableLamports: 1, transactionFormat: "v1", kinds: ["position"] })
  const started = yield* timed(Layer.build(layer), "start")
  const pass = yield* timed(Keeper.pass.pipe(Effect.provide(started.result)), "keeper")
  const { millis, result } = pass
  const landed = result.wallets.flatMap((w) => w.positions).filter((p) => p.outcome === "claimed").length
  if (landed !== claims) return yield* Effect.dieMessage(`keeper claimed ${landed} of ${claims}`)
  return { claims, millis, cpuMillis: pass.cpuMillis, startMillis: started.millis }
}).pipe(Effect.scoped, Effect.provide(sandboxLayer({ port: 0, slotMillis: 5, seed: "keeper-bench" })))

const bareRound = Effect.gen(function*() {
  const { claims, wallets } = yield* setUp
  const client = yield* FeeShareClient
  // what a cron script does per wallet: read its positions, claim each one above the threshold
  const { cpuMillis, millis } = yield* timed(
    Effect.forEach(
      wallets,
      (wallet) =>
        Effect.flatMap(
          client.claims.positions({ wallet: wallet.signer.publicKey }),
          (owedNow) =>
            Effect.forEach(owedNow, ({ baseMint: mint, totalClaimableLamportsUserShare: amount }) => {
              if (amount <= 0) {
                return Effect.void
              }
              const build = client.claims.createPlan({
                feeClaimer: wallet.signer.publicKey,
                tokenMint: mint,
                transactionFormat: "v1"
              })
              return Effect.flatMap(build, (plan) =>
                PlanExecutor.execute(plan, {
                  rebuild: () => build,
                  format: "v1",
                  rebroadcastInterval: "300 millis"
                })).pipe(
                  Effect.provide(Signers.layer(wallet.signer)),
                  Effect.asVoid
                )
            }, { discard: true })
        ),
      { concurrency: 8, discard: true }
    ),
    "bare"
  )
  return { claims, millis, cpuMillis }
}).pipe(Effect.scoped, Effect.provide(sandboxLayer({ port: 0, slotMillis: 5, seed: "keeper-bench" })))

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const spread = (values: ReadonlyArray<number>) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`

const program = Effect.gen(function*() {
  const keeperMillis: Array<number> = []
  const startMillis: Array<number> = []
  const bareMillis: Array<number> = []
  const cpuRatios: Array<number> = []
  let claims = 0
  for (let i = 0; i < rounds; i++) {
    const k = yield* keeperRound
    const b = yield* bareRound
    keeperMillis.push(k.millis)
    startMillis.push(k.startMillis)
    bareMillis.push(b.millis)
    cpuRatios.push(k.cpuMillis / b.cpuMillis)
    claims = k.claims
    console.log(
      `round ${i + 1}: bare ${b.millis.toFixed(0)} ms (CPU ${b.cpuMillis.toFixed(0)} ms), keeper start ` +
        `${k.startMillis.toFixed(0)} ms + pass ${k.millis.toFixed(0)} ms (CPU ${k.cpuMillis.toFixed(0)} ms), ` +
        `pass/bare ${(k.millis / b.millis).toFixed(2)}`
    )
  }
  const perMinute = (millis: number) => (claims / millis) * 60_000
  const ratios = keeperMillis.map((k, i) => k / bareMillis[i]!)
  const withStart = keeperMillis.map((k, i) => (k + startMillis[i]!) / bareMillis[i]!)
  const k = median(keeperMillis)
  const s = median(startMillis)
  const b = median(bareMillis)
  console.log(
    `@feeshare/keeper: ${claims} claims (${walletCount} wallets, ${tokens} tokens, v1), slots of 5 ms, ` +
      `${rounds} alternating rounds, medians; ratios per round (node ${process.version})`
  )
  console.log("| loop | ms | claims/min | ratio (median of rounds) | ratio spread |")
  console.log("| --- | ---: | ---: | ---: | ---: |")
  console.log(`| bare PlanExecutor.execute loop (baseline) | ${b.toFixed(0)} | ${perMinute(b).toFixed(0)} | 1.00 | |`)
  console.log(
    `| keeper pass (workflow + journal) | ${k.toFixed(0)} | ${perMinute(k).toFixed(0)} | ${
      median(ratios).toFixed(2)
    } | ${spread(ratios)} |`
  )
  console.log(
    `| keeper start + pass | ${(s + k).toFixed(0)} | ${perMinute(s + k).toFixed(0)} | ${
      median(withStart).toFixed(2)
    } | ${spread(withStart)} |`
  )
  console.log(
    `CPU of this process (sandbox included), keeper pass / bare loop: median ${median(cpuRatios).toFixed(2)}, spread ${
      spread(cpuRatios)
    }`
  )
  console.log(`target pass <= 1.3: ${median(ratios) <= 1.3 ? "met" : "NOT met"}`)
})

Effect.runPromise(program.pipe(Effect.provide(Layer.empty))).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
