// A hostile or broken server, answering with raw node:http: redirects that would carry the API
// key to another origin, endless and compressed-bomb bodies, absurd Retry-After values and
// rate-limit resets. The transport cases run over undici and node:http (NodeHttpClient) and
// fetch (FetchHttpClient).
import { FetchHttpClient, type HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { Api, FeeShareError } from "@feeshare/domain"
import { Chunk, Deferred, Effect, Exit, Fiber, Layer, Redacted, TestClock } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { gzipSync } from "node:zlib"
import { FeeShareClient } from "../src/index.js"
import * as F from "./fixtures.js"
import { apiKey } from "./servers.js"

interface Raw {
  /** `http://<host>:<port>`. */
  readonly origin: string
  readonly port: number
  /** Every request received: its URL and its `x-api-key` header. */
  readonly requests: Array<{ readonly url: string; readonly key: string | undefined }>
  /** Resolved when a response of this server was closed before it ended. */
  readonly aborted: Deferred.Deferred<void>
}

/** A raw node:http server on 127.0.0.1 for the test's scope; `host` names it in `origin`. */
const rawServer = (
  handler: (request: IncomingMessage, response: ServerResponse, n: number) => void,
  host = "127.0.0.1"
) =>
  Effect.gen(function*() {
    const aborted = yield* Deferred.make<void>()
    const requests: Array<{ url: string; key: string | undefined }> = []
    const server = createServer((request, response) => {
      const key = request.headers[Api.apiKeyHeader]
      requests.push({ url: request.url ?? "", key: typeof key === "string" ? key : undefined })
      response.on("close", () => {
        if (!response.writableFinished) Deferred.unsafeDone(aborted, Exit.void)
      })
      handler(request, response, requests.length)
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.async<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const { port } = server.address() as AddressInfo
    return { origin: `http://${host}:${port}`, port, requests, aborted } satisfies Raw
  })

const ok = (response: ServerResponse, body: unknown = { success: true, response: "7" }) => {
  const text = JSON.stringify(body)
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

const transports: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>]> = [
  ["undici", NodeHttpClient.layerUndici],
  ["fetch", FetchHttpClient.layer],
  ["node:http", NodeHttpClient.layer]
]

const clientOf = (server: Raw, options: Omit<FeeShareClient.FeeShareClient.Options, "baseUrl"> = {}) =>
  FeeShareClient.make({ baseUrl: `${server.origin}${Api.basePath}`, apiKey: Redacted.make(apiKey), ...options })

const lifetimeFees = (client: FeeShareClient.FeeShareClient.Service) =>
  client.analytics.lifetimeFees({ tokenMint: F.tokenMint })

/**
 * Resolves once a fiber sleeps on the TestClock until `wakeMillis` (a real signal: that
 * sleep is registered; the client's 30 s watchdog sleeps too, so any sleep would not do).
 */
const untilSleepingUntil = (wakeMillis: number) =>
  Effect.gen(function*() {
    while (!Chunk.some(yield* TestClock.sleeps(), (wake) => wake === wakeMillis)) {
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    }
  })

describe("redirects: the API key never leaves the base URL's origin", () => {
  for (const [name, transport] of transports) {
    it.scoped(`${name}: 301/302/303/307/308 to another origin fail, naming the Location; nothing reaches it`, () =>
      Effect.gen(function*() {
        const elsewhere = yield* rawServer((_request, response) => ok(response), "localhost")
        for (const status of [301, 302, 303, 307, 308]) {
          const location = `${elsewhere.origin}/steal?status=${status}`
          const server = yield* rawServer((_request, response) => {
            response.writeHead(status, { location })
            response.end()
          })
          const client = yield* clientOf(server)
          const error = yield* Effect.flip(lifetimeFees(client))
          assertInstanceOf(error, FeeShareError.UnexpectedResponse)
          assert.strictEqual(error.status, status)
          assert.include(error.message, location)
          assert.include(error.message, "another origin")
          assert.notInclude(error.message, apiKey)
          assert.strictEqual(server.requests.length, 1, "one request, never retried")
        }
        assert.deepStrictEqual(elsewhere.requests, [])
      }).pipe(Effect.provide(transport)))

    it.scoped(`${name}: a redirect within the origin is followed with the key, a loop stops at 5 hops`, () =>
      Effect.gen(function*() {
        const server = yield* rawServer((request, response) => {
          if (request.url?.includes("moved") === true) return ok(response)
          response.writeHead(307, { location: `/moved${request.url}` })
          response.end()
        })
        assert.strictEqual(yield* lifetimeFees(yield* clientOf(server)), 7n)
        assert.deepStrictEqual(server.requests.map((r) => r.key), [apiKey, apiKey])
        assert.isTrue(server.requests[1]?.url.startsWith("/moved/") === true)

        const loop = yield* rawServer((request, response) => {
          response.writeHead(302, { location: request.url ?? "/" })
          response.end()
        })
        const error = yield* Effect.flip(lifetimeFees(yield* clientOf(loop)))
        assertInstanceOf(error, FeeShareError.UnexpectedResponse)
        assert.include(error.message, "more than 5 redirects")
        assert.strictEqual(loop.requests.length, 6)
      }).pipe(Effect.provide(transport)))
  }
})

describe("response bodies are bounded", () => {
  for (const [name, transport] of transports) {
    it.scoped(`${name}: an endless body fails past maxResponseBytes and the request is cancelled`, () =>
      Effect.gen(function*() {
        const chunk = Buffer.alloc(64 * 1024, 0x20)
        const server = yield* rawServer((_request, response) => {
          response.writeHead(200, { "content-type": "application/json" })
          const pump = () => {
            while (!response.destroyed && response.write(chunk)) { /* fill the socket buffer */ }
            if (!response.destroyed) response.once("drain", pump)
          }
          pump()
        })
        const client = yield* clientOf(server, { maxResponseBytes: 1024 * 1024 })
        const error = yield* Effect.flip(lifetimeFees(client))
        assertInstanceOf(error, FeeShareError.UnexpectedResponse)
        assert.include(error.message, "exceeds maxResponseBytes (1048576 bytes)")
        yield* Deferred.await(server.aborted)
        assert.strictEqual(server.requests.length, 1)
      }).pipe(Effect.provide(transport)))

    it.scoped(`${name}: a declared length over the cap fails before the body is read`, () =>
      Effect.gen(function*() {
        const server = yield* rawServer((_request, response) => {
          response.writeHead(200, { "content-type": "application/json", "content-length": 64 * 1024 * 1024 })
          response.write("{")
        })
        const error = yield* Effect.flip(lifetimeFees(yield* clientOf(server, { maxResponseBytes: 4096 })))
        assertInstanceOf(error, FeeShareError.UnexpectedResponse)
        assert.include(error.message, "exceeds maxResponseBytes")
      }).pipe(Effect.provide(transport)))
  }

  it.scoped("fetch: a gzip bomb is counted after inflation and refused at the cap", () =>
    Effect.gen(function*() {
      const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))
      const server = yield* rawServer((_request, response) => {
        response.writeHead(200, {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "content-length": bomb.length
        })
        response.end(bomb)
      })
      const error = yield* Effect.flip(lifetimeFees(yield* clientOf(server, { maxResponseBytes: 1024 * 1024 })))
      assertInstanceOf(error, FeeShareError.UnexpectedResponse)
      assert.include(error.message, "exceeds maxResponseBytes")
      assert.isBelow(bomb.length, 1024 * 1024, "the compressed body itself is under the cap")
    }).pipe(Effect.provide(FetchHttpClient.layer)))
})

describe("Retry-After and rate-limit resets", () => {
  it.scoped("503 with a Retry-After beyond the wait budget fails at once, after one request", () =>
    Effect.gen(function*() {
      const server = yield* rawServer((_request, response) => {
        response.writeHead(503, { "content-type": "application/json", "retry-after": "999999999" })
        response.end(JSON.stringify({ success: false, error: "maintenance" }))
      })
      const error = yield* Effect.flip(lifetimeFees(yield* clientOf(server)))
      assertInstanceOf(error, FeeShareError.ServerError)
      assert.strictEqual(server.requests.length, 1)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici)))

  it.scoped("429 with Retry-After: 45 waits exactly 45 seconds, telling onRateLimitWait, then succeeds", () =>
    Effect.gen(function*() {
      const server = yield* rawServer((_request, response, n) => {
        if (n === 1) {
          response.writeHead(429, { "content-type": "application/json", "retry-after": "45" })
          return response.end(JSON.stringify({ success: false, error: "slow down" }))
        }
        ok(response)
      })
      const waits: Array<FeeShareClient.RateLimitWait> = []
      const client = yield* clientOf(server, { onRateLimitWait: (wait) => Effect.sync(() => waits.push(wait)) })
      const fiber = yield* Effect.fork(lifetimeFees(client))
      yield* untilSleepingUntil(45_000)
      assert.deepStrictEqual(waits, [{
        operation: "analytics.lifetimeFees",
        waitMillis: 45_000,
        reason: "retry_after"
      }])
      yield* TestClock.adjust("44 seconds")
      assert.strictEqual(server.requests.length, 1)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(fiber), 7n)
      assert.strictEqual(server.requests.length, 2)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici)))

  it.scoped("remaining 0 with a reset in the year 3000 does not lock the client: after the wait budget the next call is sent", () =>
    Effect.gen(function*() {
      const server = yield* rawServer((_request, response, n) => {
        const text = JSON.stringify({ success: true, response: "7" })
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          "x-ratelimit-limit": "1000",
          "x-ratelimit-remaining": n === 1 ? "0" : "998",
          "x-ratelimit-reset": n === 1 ? "32503680000" : "60"
        })
        response.end(text)
      })
      const client = yield* clientOf(server, { maxRateLimitWait: "20 seconds" })
      assert.strictEqual(yield* lifetimeFees(client), 7n)
      // held back for the wait budget at most, then sent
      const next = yield* Effect.fork(lifetimeFees(client))
      yield* untilSleepingUntil(20_000)
      yield* TestClock.adjust("20 seconds")
      assert.strictEqual(yield* Fiber.join(next), 7n)
      assert.strictEqual(server.requests.length, 2)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici)))
})

describe("a server that echoes the key in another form", () => {
  it.scoped("upper case and base64 echoes are scrubbed from the failure", () =>
    Effect.gen(function*() {
      const server = yield* rawServer((_request, response) => {
        const text = JSON.stringify({
          success: false,
          error: `bad key ${Buffer.from(apiKey).toString("base64")} / ${apiKey.toUpperCase()}`
        })
        response.writeHead(400, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
        response.end(text)
      })
      const error = yield* Effect.flip(lifetimeFees(yield* clientOf(server)))
      assertInstanceOf(error, FeeShareError.BadRequest)
      assert.strictEqual(error.message, "bad key [redacted] / [redacted]")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici)))
})
