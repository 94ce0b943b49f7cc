/**
 * Two keeper processes on one account share the budget through Redis (`--redis-url`, the
 * config's `rateBudget` as its limit and window): an HTTP proxy in front of the sandbox's API
 * records when each request arrives, and no window ever holds more than the limit, while both
 * keepers claim everything they were given.
 */
import { assert, describe, layer } from "@effect/vitest"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Effect, Redacted } from "effect"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { executables } from "../../../scripts/test-executables.mjs"
import { keyFile, owed, positions, sandboxLayer, temporaryDirectory } from "./support/fixture.js"
import { startRedis } from "./support/redis.js"

const limit = 8
const windowSeconds = 2

/** Forwards the service API to the sandbox, noting when each request arrived. */
const timingProxy = Effect.acquireRelease(
  Effect.flatMap(
    SandboxInfo,
    (info) =>
      Effect.async<{ readonly baseUrl: string; readonly arrivals: Array<number>; readonly close: () => void }>(
        (resume) => {
          const arrivals: Array<number> = []
          const target = new URL(info.rootUrl)
          const read = (request: IncomingMessage) =>
            new Promise<Buffer>((done) => {
              const chunks: Array<Buffer> = []
              request.on("data", (chunk: Buffer) => chunks.push(chunk))
              request.on("end", () => done(Buffer.concat(chunks)))
            })
          const server = createServer((request, response) => {
            arrivals.push(performance.now())
            void read(request).then(async (body) => {
              const headers = Object.fromEntries(
                Object.entries(request.headers).filter(([name]) => name !== "host" && name !== "content-length")
                  .map(([name, value]) => [name, String(value)])
              )
              const init: RequestInit = { method: request.method ?? "GET", headers }
              if (body.length > 0) init.body = new Uint8Array(body)
              const answer = await fetch(new URL(request.url ?? "/", target), init)
              const text = Buffer.from(await answer.arrayBuffer())
              const forwarded: Record<string, string> = {}
              answer.headers.forEach((value, name) => {
                if (name !== "content-length" && name !== "content-encoding" && name !== "transfer-encoding") {
                  forwarded[name] = value
                }
              })
              response.writeHead(answer.status, forwarded)
              response.end(text)
            })
          })
          server.listen(0, "127.0.0.1", () => {
            const port = (server.address() as AddressInfo).port
            resume(Effect.succeed({
              baseUrl: new URL(info.baseUrl.slice(info.rootUrl.replace(/\/$/, "").length), `http://127.0.0.1:${port}`)
                .toString()
                .replace(/\/$/, ""),
              arrivals,
              close: () => {
                server.closeAllConnections()
                server.close()
              }
            }))
          })
        }
      )
  ),
  (proxy) => Effect.sync(proxy.close)
)

const keeperOnce = (config: string, env: Record<string, string>) =>
  Effect.async<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = spawn(process.execPath, [
      executables.feeshare,
      "keeper",
      "once",
      "--json",
      "--config",
      config
    ], {
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("close", (code) => resume(Effect.succeed({ code, stdout, stderr })))
  })

describe("keeper with the budget shared through Redis", () => {
  layer(sandboxLayer({ port: 0, slotMillis: 20, seed: "keeper-budget" }), {
    excludeTestServices: true,
    timeout: "120 seconds"
  })((it) => {
    it.effect(`two keepers on one account: never more than ${limit} requests in any ${windowSeconds} s, everything claimed`, () =>
      Effect.gen(function*() {
        const info = yield* SandboxInfo
        const redis = yield* Effect.acquireRelease(
          Effect.promise(() => startRedis()),
          (server) => Effect.promise(() => server.stop())
        )
        const proxy = yield* timingProxy
        const dir = temporaryDirectory("keeper-budget-")
        const wallets = yield* Effect.forEach([0, 1, 2, 3, 4, 5, 6, 7], (i) => keyFile(dir, `w${i}`))
        yield* positions({ wallets, tokens: 2, claimersPerToken: 4, buySol: () => 2n })
        const configs = [0, 1].map((k) => {
          const file = join(dir, `keeper-${k}.json`)
          writeFileSync(
            file,
            JSON.stringify({
              wallets: wallets.slice(k * 4, k * 4 + 4).map((w) => ({ keypair: w.path })),
              transactionFormat: "v1",
              database: `keeper-${k}.db`,
              rateBudget: { limit, windowSeconds }
            })
          )
          return file
        })
        const env = {
          FEESHARE_BASE_URL: proxy.baseUrl,
          FEESHARE_API_KEY: Redacted.value(info.demoApiKey),
          FEESHARE_RPC_URL: info.rpcUrl,
          FEESHARE_REDIS_URL: redis.url,
          FEESHARE_BUDGET_KEY: "keeper-budget"
        }
        const results = yield* Effect.all(configs.map((config) => keeperOnce(config, env)), { concurrency: 2 })
        for (const result of results) {
          assert.strictEqual(result.code, 0, result.stderr)
          const report = JSON.parse(result.stdout) as {
            wallets: ReadonlyArray<{ positions: ReadonlyArray<{ outcome: string }> }>
          }
          assert.deepStrictEqual(report.wallets.flatMap((w) => w.positions.map((p) => p.outcome)), [
            "claimed",
            "claimed",
            "claimed",
            "claimed"
          ])
        }
        // together they had to wait: more requests than one window allows
        assert.isAbove(proxy.arrivals.length, limit)
        assert.isTrue(
          results.some((r) => r.stderr.includes("waiting for the rate limit")),
          "a keeper waited for the budget"
        )
        const sorted = [...proxy.arrivals].sort((a, b) => a - b)
        for (let i = 0; i < sorted.length; i++) {
          const inWindow = sorted.filter((t) => t >= sorted[i]! && t < sorted[i]! + windowSeconds * 1000).length
          assert.isAtMost(inWindow, limit, `requests in the ${windowSeconds} s from ${Math.round(sorted[i]!)} ms`)
        }
        const after = yield* owed(wallets)
        assert.isTrue([...after.values()].every((byMint) => [...byMint.values()].every((n) => n === 0)))
      }).pipe(Effect.scoped))
  })
})
