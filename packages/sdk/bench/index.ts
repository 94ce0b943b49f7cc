/**
 * The Promise facade against the Effect client it wraps, in the same run:
 * 1. call overhead: `analytics.lifetimeFees` through `FeeShare` vs through `FeeShareClient`
 *    on a `ManagedRuntime`, (a) with an in-memory `fetch` (the overhead alone) and (b) against
 *    a local HTTP server (what a caller sees); median of interleaved rounds;
 *    Each side on its default Node transport: the facade loads undici itself, the Effect
 *    client gets `NodeHttpClient.layerUndici` (its fastest Node transport);
 * 2. against the same local server: the facade vs a bare axios GET of the same URL with the
 *    same key, returning `data.response` (what an axios-based SDK does per call, before any
 *    validation of its own): sequential latency and throughput with 32 callers;
 * 3. the facade vs a stand-in built the way the official SDK's client is (a thin axios
 *    wrapper: an instance with the base URL, the key header and a 60 s timeout, and an
 *    interceptor that unwraps the `{ success, response }` envelope), and vs raw `fetch` +
 *    `JSON.parse` of the same URL: latency, and throughput with 32 callers (targets, issue
 *    34: the facade at most 0.9x the stand-in's latency, at least 1.1x its throughput, at
 *    most 1.1x raw fetch's latency).
 * The import cost and installed size of the built package are measured from the installed
 * tarball by the consumer package's bench (`npm run bench -w @feeshare/consumer`).
 *
 * Run: `npm run bench -w feeshare`
 */
import { FetchHttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { FeeShareClient } from "@feeshare/client/FeeShareClient"
import * as Client from "@feeshare/client/FeeShareClient"
import { Api, PublicKey } from "@feeshare/domain"
import axios from "axios"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Agent, createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { FeeShare } from "../src/index.js"

const calls = Number(process.env.BENCH_CALLS ?? 1000)
const rounds = 15

const tokenMint = PublicKey.fromBytes(new Uint8Array(32).fill(2))
const body = JSON.stringify({ success: true, response: "1152921504606846983" })
const headers = {
  "content-type": "application/json",
  "x-ratelimit-limit": "5000",
  "x-ratelimit-remaining": "4999",
  "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600)
}

const median = (samples: ReadonlyArray<number>): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** Median of `samples` measures of a and of b, interleaved, alternating which goes first. */
const interleaved = async (
  measure: (call: () => Promise<unknown>) => Promise<number>,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  samples: number
) => {
  const as: Array<number> = []
  const bs: Array<number> = []
  // alternate which goes first, so that neither always runs on a warmer (or busier) machine
  for (let round = 0; round < samples; round++) {
    const [first, second] = round % 2 === 0 ? [a, b] : [b, a]
    const x = await measure(first)
    const y = await measure(second)
    ;(first === a ? as : bs).push(x)
    ;(first === a ? bs : as).push(y)
  }
  return { a: median(as), b: median(bs) }
}

/** Mean µs per call of `calls` sequential calls. */
const latencyOf = async (call: () => Promise<unknown>) => {
  const start = performance.now()
  for (let i = 0; i < calls; i++) await call()
  return ((performance.now() - start) * 1000) / calls
}

/** Latency: median over `rounds`, after a warm-up of both. */
const compare = async (a: () => Promise<unknown>, b: () => Promise<unknown>) => {
  for (let i = 0; i < 200; i++) {
    await a()
    await b()
  }
  return interleaved(latencyOf, a, b, rounds)
}

const pair = (baseUrl: string, fetch?: typeof globalThis.fetch) => {
  const http = fetch === undefined
    ? NodeHttpClient.layerUndici
    : FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch)))
  const runtime = ManagedRuntime.make(
    Client.layer({ baseUrl, apiKey: Redacted.make("bench-key") }).pipe(Layer.provide(http))
  )
  const facade = new FeeShare({ baseUrl, apiKey: "bench-key", fetch })
  const effect = Effect.flatMap(FeeShareClient, (client) => client.analytics.lifetimeFees({ tokenMint }))
  return {
    effect: () => runtime.runPromise(effect),
    facade: () => facade.analytics.lifetimeFees({ tokenMint }),
    close: async () => {
      await facade.close()
      await runtime.dispose()
    }
  }
}

/** Calls per second with `callers` concurrent callers sharing `total` calls. */
const throughputOf = async (call: () => Promise<unknown>, callers = 32, total = calls * 4) => {
  let started = 0
  const start = performance.now()
  await Promise.all(Array.from({ length: callers }, async () => {
    while (started++ < total) await call()
  }))
  return total / ((performance.now() - start) / 1000)
}

/** Throughput: median over half as many rounds. */
const compareThroughput = (a: () => Promise<unknown>, b: () => Promise<unknown>) =>
  interleaved((call) => throughputOf(call), a, b, Math.ceil(rounds / 2))

const row = (name: string, value: number, baseline: number, unit: string) =>
  `${name.padEnd(54)} ${value.toFixed(1).padStart(9)} ${unit.padEnd(7)} ${baseline.toFixed(1).padStart(9)} ${
    unit.padEnd(7)
  } ${(value / baseline).toFixed(2).padStart(6)}x`

const main = async () => {
  const table: Array<string> = []

  // 1a. in-memory fetch: the facade's own cost per call
  const memory = pair("http://bench.invalid/api/v1", () => Promise.resolve(new Response(body, { headers })))
  const inMemory = await compare(memory.facade, memory.effect)
  await memory.close()
  table.push(row("call, in-memory fetch: FeeShare / FeeShareClient", inMemory.a, inMemory.b, "µs"))

  // 1b. a local HTTP server
  let lastUrl = ""
  const server = createServer((request, response) => {
    lastUrl = request.url ?? ""
    response.writeHead(200, { ...headers, "content-length": Buffer.byteLength(body) })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const local = pair(`http://127.0.0.1:${port}${Api.basePath}`)
  const overHttp = await compare(local.facade, local.effect)
  table.push(row("call, local HTTP server: FeeShare / FeeShareClient", overHttp.a, overHttp.b, "µs"))
  const parallel = await compareThroughput(local.facade, local.effect)
  table.push(row("32 callers, local server: FeeShare / FeeShareClient", parallel.a, parallel.b, "calls/s"))

  // 2. the same call as a bare axios request (keep-alive, as axios-based SDKs configure it)
  await local.facade()
  const url = `http://127.0.0.1:${port}${lastUrl}`
  const axiosClient = axios.create({ httpAgent: new Agent({ keepAlive: true }), headers: { "x-api-key": "bench-key" } })
  const viaAxios = () =>
    axiosClient.get<{ readonly response: string }>(url).then((answer) => BigInt(answer.data.response))
  const againstAxios = await compare(local.facade, viaAxios)
  table.push(row("call, local server: FeeShare / bare axios", againstAxios.a, againstAxios.b, "µs"))
  const parallelAxios = await compareThroughput(local.facade, viaAxios)
  table.push(row("32 callers, local server: FeeShare / bare axios", parallelAxios.a, parallelAxios.b, "calls/s"))

  // 3. the official SDK's client, as built: axios with its envelope unwrap and a 60 s timeout
  const official = axios.create({
    baseURL: `http://127.0.0.1:${port}${Api.basePath}`,
    timeout: 60_000,
    headers: { "x-api-key": "bench-key", "content-type": "application/json" }
  })
  official.interceptors.response.use((answer) => {
    const envelope = answer.data as { readonly success: boolean; readonly response?: unknown; readonly error?: string }
    if (!envelope.success) throw new Error(envelope.error ?? "request failed")
    return { ...answer, data: envelope.response }
  })
  const path = lastUrl.slice(Api.basePath.length)
  const viaOfficial = () => official.get<string>(path).then((answer) => BigInt(answer.data))
  const againstOfficial = await compare(local.facade, viaOfficial)
  table.push(row("call, local server: FeeShare / official-SDK stand-in", againstOfficial.a, againstOfficial.b, "µs"))
  const parallelOfficial = await compareThroughput(local.facade, viaOfficial)
  table.push(
    row("32 callers, local server: FeeShare / official-SDK stand-in", parallelOfficial.a, parallelOfficial.b, "calls/s")
  )
  const viaFetch = () =>
    fetch(url, { headers: { "x-api-key": "bench-key" } }).then(async (answer) => {
      const envelope = JSON.parse(await answer.text()) as { readonly response: string }
      return BigInt(envelope.response)
    })
  const againstFetch = await compare(local.facade, viaFetch)
  table.push(row("call, local server: FeeShare / raw fetch + JSON.parse", againstFetch.a, againstFetch.b, "µs"))
  await local.close()
  await new Promise<void>((resolve) => server.close(() => resolve()))

  console.log(`feeshare (sdk) benchmarks: ${calls} sequential calls x ${rounds} rounds (median)`)
  console.log(`${"measure".padEnd(54)} ${"value".padStart(17)} ${"baseline".padStart(17)} ${"ratio".padStart(7)}`)
  for (const line of table) console.log(line)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
