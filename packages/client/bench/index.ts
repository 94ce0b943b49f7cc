/**
 * `analytics.lifetimeFees` through the client vs raw `fetch` + `JSON.parse`, against the same
 * local server in the same run: median sequential latency, and throughput with 32 concurrent
 * callers. Prints a ratio table (client / baseline). The sides take turns in short rounds
 * (latency: 20 rounds; throughput: 9 rounds, median) so that the load of a shared machine
 * hits them alike; the CPU time per sequential call (the whole process, the server's share
 * included) is printed too, as it is less sensitive to that load than wall time.
 *
 * Run: `npm run bench -w @feeshare/client`
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Api, PublicKey } from "@feeshare/domain"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { FeeShareClient } from "../src/index.js"

const sequentialCalls = Number(process.env.BENCH_CALLS ?? 2000)
const rounds = 20
const concurrency = 32
/** Calls per throughput round (all callers together). */
const concurrentCalls = Number(process.env.BENCH_CONCURRENT_CALLS ?? 2048)
const throughputRounds = 9

const tokenMint = PublicKey.fromBytes(new Uint8Array(32).fill(2))
const body = JSON.stringify({ success: true, response: "1152921504606846983" })

const path = (() => {
  const group = Object.values(Api.Api.groups).find((candidate) => candidate.identifier === "analytics")
  const endpoint = Object.values(group?.endpoints ?? {}).find((candidate) => candidate.name === "lifetimeFees")
  if (endpoint === undefined) throw new Error("no analytics.lifetimeFees in Api.Api")
  return endpoint.path
})()

const server = createServer((_request, response) => {
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "4999",
    "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600)
  })
  response.end(body)
})

const median = (samples: Array<number>): number => {
  const sorted = [...samples].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] ?? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const main = async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const root = `http://127.0.0.1:${port}`
  const url = `${root}${path}?tokenMint=${tokenMint}`

  const raw = async (): Promise<bigint> => {
    const response = await fetch(url, { headers: { "x-api-key": "bench-key", accept: "application/json" } })
    const parsed: unknown = JSON.parse(await response.text())
    if (
      typeof parsed !== "object" || parsed === null || !("response" in parsed) || typeof parsed.response !== "string"
    ) {
      throw new Error("unexpected body")
    }
    return BigInt(parsed.response)
  }

  const transports: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>]> = [
    ["NodeHttpClient (undici)", NodeHttpClient.layerUndici],
    ["FetchHttpClient", FetchHttpClient.layer]
  ]
  interface Side {
    readonly name: string
    readonly runtime: {
      readonly runPromise: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
      readonly dispose: () => Promise<void>
    }
    readonly call: Effect.Effect<unknown, unknown>
    readonly latency: Array<number>
    readonly rates: Array<number>
    /** CPU microseconds per sequential call, per round. */
    readonly cpu: Array<number>
  }
  const clients: Array<Side> = await Promise.all(transports.map(async ([name, layer]): Promise<Side> => {
    const runtime = ManagedRuntime.make(
      FeeShareClient.layer({ baseUrl: `${root}${Api.basePath}`, apiKey: Redacted.make("bench-key") }).pipe(
        Layer.provide(layer)
      )
    )
    const client = await runtime.runPromise(FeeShareClient.FeeShareClient)
    return { name, runtime, call: client.analytics.lifetimeFees({ tokenMint }), latency: [], rates: [], cpu: [] }
  }))
  // for reference: the bare platform client on undici (no validation, envelope, limits, retries, timeout,
  // span), with its own span per request (the default) and without it (as the client uses it)
  for (const traced of [true, false]) {
    const runtime = ManagedRuntime.make(NodeHttpClient.layerUndici)
    const platform = await runtime.runPromise(HttpClient.HttpClient)
    const http = traced ? platform : HttpClient.withTracerDisabledWhen(platform, () => true)
    const request = HttpClientRequest.get(url, { headers: { "x-api-key": "bench-key" }, acceptJson: true })
    const call = Effect.flatMap(
      http.execute(request),
      (response) => Effect.map(response.text, (text) => JSON.parse(text))
    )
    clients.push({
      name: `reference: bare NodeHttpClient + JSON.parse${traced ? "" : ", transport span off"}`,
      runtime,
      call,
      latency: [],
      rates: [],
      cpu: []
    })
  }

  // warm up every path (JIT, connection pools)
  for (let i = 0; i < 1000; i++) await raw()
  for (const client of clients) await client.runtime.runPromise(Effect.repeatN(client.call, 1000))

  // sequential latency, alternating short rounds so drift and load hit every side alike
  const rawSamples: Array<number> = []
  const rawCpu: Array<number> = []
  const perRound = Math.ceil(sequentialCalls / rounds)
  const cpuPerCall = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since)
    return (used.user + used.system) / perRound
  }
  for (let round = 0; round < rounds; round++) {
    let cpu = process.cpuUsage()
    for (let i = 0; i < perRound; i++) {
      const start = performance.now()
      await raw()
      rawSamples.push(performance.now() - start)
    }
    rawCpu.push(cpuPerCall(cpu))
    for (const client of clients) {
      cpu = process.cpuUsage()
      await client.runtime.runPromise(Effect.gen(function*() {
        for (let i = 0; i < perRound; i++) {
          const start = performance.now()
          yield* client.call
          client.latency.push(performance.now() - start)
        }
      }))
      client.cpu.push(cpuPerCall(cpu))
    }
  }

  // throughput with 32 concurrent callers
  const perCaller = Math.ceil(concurrentCalls / concurrency)
  const calls = perCaller * concurrency
  const rawRates: Array<number> = []
  for (let round = 0; round < throughputRounds; round++) {
    let start = performance.now()
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = 0; i < perCaller; i++) await raw()
    }))
    rawRates.push(calls / ((performance.now() - start) / 1000))
    for (const client of clients) {
      start = performance.now()
      await client.runtime.runPromise(
        Effect.all(Array.from({ length: concurrency }, () => Effect.repeatN(client.call, perCaller - 1)), {
          concurrency
        })
      )
      client.rates.push(calls / ((performance.now() - start) / 1000))
    }
  }

  const rawLatency = median(rawSamples)
  const rawRate = median(rawRates)
  const rawCpuPerCall = median(rawCpu)
  const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const micros = (millis: number) => `${(millis * 1000).toFixed(0)} µs`
  console.log(
    `@feeshare/client: analytics.lifetimeFees vs fetch + JSON.parse, same server, same run (node ${process.version})`
  )
  console.log(row(["client transport", "metric", "fetch + JSON.parse", "client", "ratio", "target"]))
  console.log(row(["---", "---", "---", "---", "---", "---"]))
  for (const client of clients) {
    const latency = median(client.latency)
    const rate = median(client.rates)
    const cpu = median(client.cpu)
    console.log(row([
      client.name,
      `median latency, sequential (${rawSamples.length} calls)`,
      micros(rawLatency),
      micros(latency),
      `${(latency / rawLatency).toFixed(2)}×`,
      "≤ 1.25×"
    ]))
    console.log(row([
      client.name,
      `throughput, ${concurrency} concurrent callers (${calls} calls, median of ${throughputRounds} rounds)`,
      `${rawRate.toFixed(0)} req/s`,
      `${rate.toFixed(0)} req/s`,
      `${(rate / rawRate).toFixed(2)}×`,
      "≥ 0.80×"
    ]))
    console.log(row([
      client.name,
      "CPU per sequential call (process, server included; median of rounds)",
      micros(rawCpuPerCall / 1000),
      micros(cpu / 1000),
      `${(cpu / rawCpuPerCall).toFixed(2)}×`,
      ""
    ]))
  }
  for (const client of clients) await client.runtime.dispose()
  server.close()
  server.closeAllConnections()
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
  server.close()
})
