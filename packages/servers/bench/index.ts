/**
 * The shared rate budget's cost, in one run against a `redis-server` this bench starts on a
 * free port and a local `node:http` server answering `analytics.lifetimeFees`:
 * - per-call latency of the Effect client (undici) with the Redis budget vs without a budget
 *   (target ≤ 1.3× on localhost), and with the in-memory budget for reference;
 * - one admission (`RedisBudget` store `take`: one Lua script) vs a bare `PING` over its own
 *   ioredis connection to the same Redis (the floor of any Redis round trip).
 * Sides alternate in short rounds (medians), so that a shared machine's load hits them alike.
 *
 * Run: `npm run bench -w @feeshare/servers` (needs `redis-server` on the PATH).
 */
import { NodeHttpClient } from "@effect/platform-node"
import { FeeShareClient, RateBudget } from "@feeshare/client"
import * as RedisBudget from "@feeshare/client/RedisBudget"
import { Api, PublicKey } from "@feeshare/domain"
import { Context, Layer, ManagedRuntime, Redacted } from "effect"
import { Redis } from "ioredis"
import { createServer } from "node:http"
import { startRedis } from "../support/processes.js"

const callsPerRound = Number(process.env.BENCH_CALLS ?? 300)
const rounds = Number(process.env.BENCH_ROUNDS ?? 15)

const tokenMint = PublicKey.fromBytes(new Uint8Array(32).fill(2))
const body = JSON.stringify({ success: true, response: "1152921504606846983" })

const server = createServer((_request, response) => {
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    // a limit the bench never reaches: no waits, only the cost of counting
    "x-ratelimit-limit": "1000000000",
    "x-ratelimit-remaining": "999999999",
    "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600)
  })
  response.end(body)
})

const median = (samples: ReadonlyArray<number>): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** Microseconds per call of `n` sequential calls. */
const perCall = async (n: number, call: () => Promise<unknown>): Promise<number> => {
  const started = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await call()
  return Number(process.hrtime.bigint() - started) / 1000 / n
}

const main = async () => {
  const redis = await startRedis()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (typeof address !== "object" || address === null) throw new Error("no address")
  const baseUrl = `http://127.0.0.1:${address.port}${Api.basePath}`
  const budget = (store: RateBudget.Options["store"]): RateBudget.Options => ({
    limit: 1_000_000_000,
    window: "1 hour",
    key: "bench",
    store
  })
  const clientOf = (options: Omit<FeeShareClient.FeeShareClient.Options, "baseUrl">) =>
    ManagedRuntime.make(
      FeeShareClient.layer({ baseUrl, apiKey: Redacted.make("bench-key"), ...options }).pipe(
        Layer.provide(NodeHttpClient.layerUndici)
      )
    )
  const sides = {
    "no budget": clientOf({}),
    "in-memory budget": clientOf({ budget: budget(undefined) }),
    "Redis budget": clientOf({ budget: budget(RedisBudget.make({ url: redis.url, prefix: "bench" })) })
  }
  const calls = Object.fromEntries(
    await Promise.all(
      Object.entries(sides).map(async ([name, runtime]) => {
        const client = await runtime.runPromise(FeeShareClient.FeeShareClient)
        return [name, () => runtime.runPromise(client.analytics.lifetimeFees({ tokenMint }))] as const
      })
    )
  )

  const ping = new Redis(redis.url)
  const takes = await makeTaker(redis.url)
  const admissions = {
    "PING (ioredis)": () => ping.ping(),
    "admission (take)": takes.take
  }

  // warm-up
  for (const call of [...Object.values(calls), ...Object.values(admissions)]) await perCall(500, call)

  const latency: Record<string, Array<number>> = {}
  for (let round = 0; round < rounds; round++) {
    for (const [name, call] of [...Object.entries(calls), ...Object.entries(admissions)]) {
      ;(latency[name] ??= []).push(await perCall(callsPerRound, call))
    }
  }
  const m = (name: string) => median(latency[name] ?? [])
  const row = (what: string, base: string, ours: string, target: string) =>
    `| ${what} | ${m(base).toFixed(1)} µs | ${m(ours).toFixed(1)} µs | ${(m(ours) / m(base)).toFixed(2)}× | ${target} |`
  console.log(`node ${process.version}, ${rounds} rounds × ${callsPerRound} sequential calls per side, medians\n`)
  console.log("| measure | baseline | ours | ratio | target |")
  console.log("| --- | ---: | ---: | ---: | --- |")
  console.log(row("call with the Redis budget / without a budget", "no budget", "Redis budget", "≤ 1.3×"))
  console.log(row("call with the in-memory budget / without a budget", "no budget", "in-memory budget", ""))
  console.log(
    row("one admission (Lua script) / bare PING to the same Redis", "PING (ioredis)", "admission (take)", "floor")
  )
  console.log(
    `\nthe Redis budget adds ${(m("Redis budget") - m("no budget")).toFixed(1)} µs per call; ` +
      `an admission takes ${(m("admission (take)") - m("PING (ioredis)")).toFixed(1)} µs more than a PING`
  )

  ping.disconnect()
  await takes.close()
  await Promise.all(Object.values(sides).map((runtime) => runtime.dispose()))
  server.close()
  await redis.stop()
}

/** The store of `makeTaker`'s runtime. */
class Tag extends Context.Tag("bench/Store")<Tag, RateBudget.Store>() {}

/** A Redis store kept open (its scope closed by `close`), and one bucket's `take` as a promise. */
const makeTaker = async (url: string) => {
  const runtime = ManagedRuntime.make(Layer.scoped(Tag, RedisBudget.make({ url, prefix: "bench-take" })))
  const store = await runtime.runPromise(Tag)
  const buckets = [{ key: "bench", limit: 1_000_000_000, windowMillis: 3_600_000 }]
  return { take: () => runtime.runPromise(store.take(buckets)), close: () => runtime.dispose() }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
