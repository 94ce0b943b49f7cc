/**
 * Throughput of `GET token-launch/lifetime-fees` on the sandbox against a bare `node:http`
 * server answering the same JSON, measured in the same run. The servers run on the main
 * thread; the load generator (keep-alive connections, fixed concurrency) runs in a worker
 * thread so that it does not compete for the servers' event loop.
 *
 * A reference row measures the platform's floor in the same rounds: `HttpApiBuilder` on
 * `NodeHttpServer` serving the domain's own `AnalyticsGroup` (API-key security and query
 * decoding included) with a handler that answers at once, and no rate limits, envelope
 * middleware or market. What the sandbox costs above that row is the sandbox's own.
 *
 * Run: npm run bench -w @feeshare/sandbox
 */
import { HttpApi, HttpApiBuilder, HttpMiddleware, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Api } from "@feeshare/domain"
import {
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  partiallySignTransaction
} from "@solana/kit"
import { Effect, Layer, Redacted } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Worker } from "node:worker_threads"
import * as Sandbox from "../src/Sandbox.js"
import { SandboxInfo } from "../src/Server.js"

const connections = 32
const warmupMillis = 1_000
const measureMillis = 3_000
const rounds = 3

const loadWorker = `
const { parentPort, workerData } = require("node:worker_threads")
const http = require("node:http")
const { url, headers, connections, millis } = workerData
const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
let done = 0, failed = 0, stop = false
const one = () => new Promise((resolve) => {
  const req = http.get(url, { agent, headers }, (res) => {
    res.resume()
    res.on("end", () => { if (res.statusCode === 200) done++; else failed++; resolve() })
  })
  req.on("error", () => { failed++; resolve() })
})
const loop = async () => { while (!stop) await one() }
const started = Date.now()
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  agent.destroy()
  parentPort.postMessage({ done, failed, millis: Date.now() - started })
})
setTimeout(() => { stop = true }, millis)
`

const load = (url: string, headers: Record<string, string>, millis: number) =>
  Effect.async<{ done: number; failed: number; millis: number }>((resume) => {
    const worker = new Worker(loadWorker, { eval: true, workerData: { url, headers, connections, millis } })
    worker.once("message", (result) => {
      resume(Effect.succeed(result))
      void worker.terminate()
    })
    return Effect.promise(() => worker.terminate())
  })

const rate = (r: { done: number; millis: number }) => (r.done * 1000) / r.millis

const bare = (body: string) =>
  Effect.acquireRelease(
    Effect.async<Server>((resume) => {
      const server = createServer((request, response) => {
        response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        response.end(body)
      })
      server.listen(0, "127.0.0.1", () => {
        resume(Effect.succeed(server))
      })
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )

class FloorApi extends HttpApi.make("floor").add(Api.AnalyticsGroup) {}

/** The reference: the builder and the Node server alone, on a port of their own. */
const floor = (lifetimeFees: bigint) =>
  Effect.gen(function*() {
    const handlers = HttpApiBuilder.group(FloorApi, "analytics", (h) =>
      h
        .handle("lifetimeFees", () => Effect.succeed(lifetimeFees))
        .handle("claimStats", () => Effect.succeed([]))
        .handle("claimEvents", () => Effect.succeed({ events: [] }))
        .handle("pools", () => Effect.succeed([])))
    const apiKey = Layer.succeed(
      Api.ApiKey,
      Api.ApiKey.of({ apiKey: () => Effect.succeed({ userId: "floor", keyId: "floor" }) })
    )
    const served = HttpApiBuilder.serve().pipe(
      HttpMiddleware.withTracerDisabledWhen(() => true),
      Layer.provide(HttpApiBuilder.api(FloorApi).pipe(Layer.provide(handlers), Layer.provide(apiKey))),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
    )
    const context = yield* Layer.build(served)
    const address = HttpServer.HttpServer.pipe(Effect.map((server) => server.address), Effect.provide(context))
    const bound = yield* address
    return bound._tag === "TcpAddress" ? bound.port : 0
  })

const program = Effect.gen(function*() {
  const info = yield* SandboxInfo
  const apiKey = Redacted.value(info.demoApiKey)
  // a launched token of the sandbox's own market: created through the sandbox-only routes,
  // launched by its creator (lifetime-fees answers 400 for a token not launched)
  const creator = yield* Effect.promise(() => generateKeyPairSigner())
  const post = <A>(path: string, body: unknown, headers: Record<string, string> = {}) =>
    Effect.promise(() =>
      fetch(`${info.rootUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      }).then((r) => r.json() as Promise<{ response: A }>)
    )
  yield* post("/sandbox/airdrop", { address: creator.address, lamports: "10000000000" })
  const created = yield* post<{ mint: string; configKey: string }>("/sandbox/tokens", { creator: creator.address })
  const launch = yield* post<string>(Api.LaunchGroup.endpoints.createTransaction.path, {
    ipfs: "ipfs://bench",
    tokenMint: created.response.mint,
    wallet: creator.address,
    configKey: created.response.configKey,
    initialBuyLamports: 0
  }, { [Api.apiKeyHeader]: apiKey })
  yield* Effect.promise(async () => {
    const signed = await partiallySignTransaction(
      [creator.keyPair],
      getTransactionDecoder().decode(getBase58Encoder().encode(launch.response))
    )
    await createSolanaRpc(info.rpcUrl).sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" })
      .send()
  })
  const path = `${Api.AnalyticsGroup.endpoints.lifetimeFees.path}?tokenMint=${created.response.mint}`
  const sandboxUrl = `${info.rootUrl}${path}`
  const headers = { [Api.apiKeyHeader]: apiKey }
  const body = yield* Effect.promise(() => fetch(sandboxUrl, { headers }).then((r) => r.text()))
  const server = yield* bare(body)
  const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  const fees = (JSON.parse(body) as { response: string }).response
  const floorUrl = `http://127.0.0.1:${yield* floor(BigInt(fees))}${path}`
  const floorBody = yield* Effect.promise(() => fetch(floorUrl, { headers }).then((r) => r.text()))
  if (floorBody !== body) return yield* Effect.die(`the reference answers ${floorBody}, the sandbox ${body}`)

  yield* load(bareUrl, headers, warmupMillis)
  yield* load(sandboxUrl, headers, warmupMillis)
  yield* load(floorUrl, headers, warmupMillis)
  const results: Array<{ bare: number; sandbox: number; floor: number; failed: number }> = []
  for (let i = 0; i < rounds; i++) {
    const b = yield* load(bareUrl, headers, measureMillis)
    const s = yield* load(sandboxUrl, headers, measureMillis)
    const f = yield* load(floorUrl, headers, measureMillis)
    results.push({ bare: rate(b), sandbox: rate(s), floor: rate(f), failed: b.failed + s.failed + f.failed })
  }
  const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const bareRate = median(results.map((r) => r.bare))
  const sandboxRate = median(results.map((r) => r.sandbox))
  const floorRate = median(results.map((r) => r.floor))
  const failed = results.reduce((n, r) => n + r.failed, 0)
  const pad = (text: string, n: number) => text.padEnd(n)
  const line = (name: string, value: number) =>
    `| ${pad(name, 48)} | ${pad(value.toFixed(0), 10)} | ${pad((value / bareRate).toFixed(2), 6)} |`
  console.log(
    `GET ${Api.AnalyticsGroup.endpoints.lifetimeFees.path}: ${connections} keep-alive connections, ` +
      `${rounds} rounds of ${measureMillis / 1000} s, median (body ${body.length} bytes, ${failed} non-200)`
  )
  console.log(`| ${pad("server", 48)} | ${pad("req/s", 10)} | ${pad("ratio", 6)} |`)
  console.log(`|${"-".repeat(50)}|${"-".repeat(12)}|${"-".repeat(8)}|`)
  console.log(line("bare node:http (baseline)", bareRate))
  console.log(line("sandbox (HttpApiBuilder + limits + auth)", sandboxRate))
  console.log(line("reference: HttpApiBuilder + NodeHttpServer alone", floorRate))
  console.log(`target >= 0.50: ${sandboxRate / bareRate >= 0.5 ? "met" : "NOT met"}`)
})

Effect.runPromise(
  Effect.scoped(program).pipe(
    Effect.provide(Sandbox.layer({ rateLimit: 1_000_000_000, seed: "bench" }).pipe(Layer.orDie))
  )
).then(() => process.exit(0), (error) => {
  console.error(error)
  process.exit(1)
})
