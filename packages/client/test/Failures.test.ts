import { FetchHttpClient, HttpServerResponse } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { FeeShareError, RateLimit } from "@feeshare/domain"
import { Deferred, Effect, Fiber, Option, Queue, Stream, SubscriptionRef, TestClock } from "effect"
import { FeeShareClient } from "../src/index.js"
import * as F from "./fixtures.js"
import { baseUrl, hang, json, makeClient, raw, reset, scripted, type Seen, success } from "./servers.js"

const once = { retry: { maxAttempts: 1 } }
const lifetimeFees = (client: FeeShareClient.FeeShareClient.Service) =>
  Effect.flip(client.analytics.lifetimeFees({ tokenMint: F.tokenMint }))

const headers = RateLimit.toHeaders(
  new RateLimit.RateLimitInfo({ limit: 5000, remaining: 4321, resetAt: 1_900_000_000 })
)

describe("failure envelopes map to the domain's failures by status", () => {
  const cases = [
    { status: 400, tag: "BadRequest", message: "tokenMint is required" },
    { status: 401, tag: "Unauthorized", message: "invalid api key" },
    { status: 403, tag: "Forbidden", message: "key lacks permission" },
    { status: 404, tag: "NotFound", message: "user not found" },
    { status: 413, tag: "BadRequest", message: "upload too large" },
    { status: 500, tag: "ServerError", message: "internal error" }
  ] as const

  it.scoped("400/401/403/404/413/500 bodies: tag, status, message, operation and rate-limit snapshot", () => {
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient(once)
      for (const expected of cases) {
        const error = yield* lifetimeFees(client)
        if (error._tag === "InvalidRequest") return assert.fail(error.message)
        assert.deepStrictEqual(
          [error._tag, error.status, error.message, error.operation],
          [expected.tag, expected.status, expected.message, "analytics.lifetimeFees"]
        )
        assert.strictEqual(error.rateLimit?.remaining, 4321)
      }
      assert.strictEqual(seen.length, cases.length)
      // error responses update the shared rate-limit state too
      assert.deepStrictEqual(
        Option.map(yield* SubscriptionRef.get(client.rateLimit), (info) => info.remaining),
        Option.some(4321)
      )
    }).pipe(Effect.provide(scripted(seen, (_request, { n }) => {
      const { message, status } = cases[n - 1] ?? cases[0]
      return json({ success: false, error: message }, status, headers)
    })))
  })

  it.scoped("429 whose reset is beyond maxRateLimitWait: RateLimited with limit, remaining, resetAt, sent once", () => {
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient()
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.RateLimited)
      assert.deepStrictEqual(
        [error.status, error.message, error.limit, error.remaining, error.resetAt],
        [429, "Too many requests", 5000, 0, 4_000_000_000]
      )
      assert.strictEqual(seen.length, 1)
    }).pipe(
      Effect.provide(
        scripted(seen, () =>
          json(
            { success: false, error: "Too many requests", limit: 5000, remaining: 0, resetTime: 4_000_000_000 },
            429
          ))
      )
    )
  })

  it.scoped("EVM operations: the message in `response` (400 and 500), the 401 in `error`", () => {
    const seen: Array<Seen> = []
    const answers = [
      json({ success: false, response: "owner must be an address" }, 400),
      json({ success: false, response: "indexer unavailable" }, 500),
      json({ success: false, error: "missing api key" }, 401)
    ]
    return Effect.gen(function*() {
      const client = yield* makeClient(once)
      const a = yield* Effect.flip(client.evm.claimablePositions({ owner: F.evmOwner }))
      assertInstanceOf(a, FeeShareError.BadRequest)
      assert.deepStrictEqual([a.status, a.message, a.operation], [
        400,
        "owner must be an address",
        "evm.claimablePositions"
      ])
      const b = yield* Effect.flip(client.evm.indexTokenStatus({ tokenAddresses: F.evmAddresses }))
      assertInstanceOf(b, FeeShareError.ServerError)
      assert.deepStrictEqual([b.status, b.message], [500, "indexer unavailable"])
      const c = yield* Effect.flip(client.evm.creationFee())
      assertInstanceOf(c, FeeShareError.Unauthorized)
      assert.strictEqual(c.message, "missing api key")
    }).pipe(
      Effect.provide(
        scripted(
          seen,
          (_request, { n }) => answers[n - 1] ?? json({ success: false, error: "unexpected request" }, 500)
        )
      )
    )
  })

  it.scoped("an HTML error page is UnexpectedResponse with its status and the start of the page", () => {
    const page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
    return Effect.gen(function*() {
      const client = yield* makeClient(once)
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.UnexpectedResponse)
      assert.strictEqual(error.status, 502)
      assert.strictEqual(error.message, "expected a JSON response, got content type text/html (status 502)")
      assert.strictEqual(error.body, page)
    }).pipe(Effect.provide(scripted([], () => raw(page, 502, "text/html"))))
  })

  it.scoped("truncated JSON is UnexpectedResponse: not JSON", () =>
    Effect.gen(function*() {
      const client = yield* makeClient(once)
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.UnexpectedResponse)
      assert.deepStrictEqual([error.status, error.message, error.body], [
        200,
        "response is not JSON (status 200)",
        "{\"success\":true,\"respo"
      ])
    }).pipe(Effect.provide(scripted([], () => raw("{\"success\":true,\"respo", 200, "application/json")))))

  it.scoped("success:false on a 200 is UnexpectedResponse carrying the server's message", () =>
    Effect.gen(function*() {
      const client = yield* makeClient(once)
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.UnexpectedResponse)
      assert.deepStrictEqual([error.status, error.message], [200, "maintenance"])
    }).pipe(Effect.provide(scripted([], () => json({ success: false, error: "maintenance" })))))

  it.scoped("a wrong content type is UnexpectedResponse, even around a well-formed envelope", () =>
    Effect.gen(function*() {
      const client = yield* makeClient(once)
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.UnexpectedResponse)
      assert.deepStrictEqual([error.status, error.message], [
        200,
        "expected a JSON response, got content type text/plain (status 200)"
      ])
    }).pipe(Effect.provide(scripted([], () => raw(JSON.stringify(success("42")), 200, "text/plain")))))

  it.scoped("a payload that does not match its schema is UnexpectedResponse naming the operation", () =>
    Effect.gen(function*() {
      const client = yield* makeClient(once)
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.UnexpectedResponse)
      assert.strictEqual(error.status, 200)
      assert.include(error.message, "analytics.lifetimeFees schema")
    }).pipe(Effect.provide(scripted([], () => json(success("-5"))))))

  it.scoped("a connection reset is TransportError (status 0)", () =>
    Effect.gen(function*() {
      const client = yield* makeClient(once)
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.TransportError)
      assert.deepStrictEqual([error.status, error.operation], [0, "analytics.lifetimeFees"])
      assert.include(error.message, "request failed (Transport)")
    }).pipe(Effect.provide(scripted([], (request) => reset(request)))))

  it.scoped("nothing listening is TransportError", () =>
    Effect.gen(function*() {
      const client = yield* FeeShareClient.make({ baseUrl: "http://127.0.0.1:1/api/v1", ...once }).pipe(
        Effect.provide(FetchHttpClient.layer)
      )
      const error = yield* lifetimeFees(client)
      assertInstanceOf(error, FeeShareError.TransportError)
    }))

  it.scoped("a slow server is Timeout after the per-request limit, and the request is cancelled", () => {
    return Effect.gen(function*() {
      const arrived = yield* Deferred.make<void>()
      const cancelled = yield* Deferred.make<void>()
      const server = scripted([], () =>
        Deferred.succeed(arrived, undefined).pipe(
          Effect.zipRight(Effect.never),
          Effect.onInterrupt(() => Deferred.succeed(cancelled, undefined)),
          Effect.as(HttpServerResponse.empty())
        ))
      yield* Effect.gen(function*() {
        const client = yield* makeClient({ timeout: "5 seconds", ...once })
        const fiber = yield* Effect.fork(lifetimeFees(client))
        yield* Deferred.await(arrived)
        yield* TestClock.adjust("5 seconds")
        const error = yield* Fiber.join(fiber)
        assertInstanceOf(error, FeeShareError.Timeout)
        assert.deepStrictEqual([error.status, error.message], [0, "no response within 5000 ms"])
        // the server saw the client go away: nothing is left in flight
        yield* Deferred.await(cancelled)
      }).pipe(Effect.provide(server))
    })
  })

  it.scoped("the time limit covers a body that stalls after the headers, on fetch and on undici", () =>
    Effect.gen(function*() {
      const transports = [["fetch", FetchHttpClient.layer], ["undici", NodeHttpClient.layerUndici]] as const
      for (const [name, transport] of transports) {
        const started = yield* Deferred.make<void>()
        const cancelled = yield* Deferred.make<void>()
        const server = scripted([], () =>
          Effect.succeed(HttpServerResponse.stream(
            Stream.concat(
              Stream.fromEffect(
                Effect.as(Deferred.succeed(started, undefined), new TextEncoder().encode("{\"success\":"))
              ),
              Stream.never
            ).pipe(Stream.ensuring(Deferred.succeed(cancelled, undefined))),
            { contentType: "application/json", headers }
          )))
        yield* Effect.gen(function*() {
          const url = yield* baseUrl
          const client = yield* FeeShareClient.make({ baseUrl: url, timeout: "5 seconds", ...once })
          const fiber = yield* Effect.fork(lifetimeFees(client))
          yield* Deferred.await(started)
          yield* TestClock.adjust("5 seconds")
          const error = yield* Fiber.join(fiber)
          assertInstanceOf(error, FeeShareError.Timeout, name)
          assert.strictEqual(error.message, "no response within 5000 ms", name)
          yield* Deferred.await(cancelled)
        }).pipe(Effect.provide(server), Effect.provide(transport), Effect.scoped)
      }
    }))

  it.scoped("each attempt keeps its own deadline; a later request outlives an earlier one's timeout", () =>
    Effect.gen(function*() {
      const arrivals = yield* Queue.unbounded<number>()
      const server = scripted([], (request, { n }) => Queue.offer(arrivals, n).pipe(Effect.zipRight(hang(request))))
      yield* Effect.gen(function*() {
        const client = yield* makeClient({ timeout: "5 seconds", ...once })
        const first = yield* Effect.fork(lifetimeFees(client))
        yield* Queue.take(arrivals)
        yield* TestClock.adjust("2 seconds")
        const second = yield* Effect.fork(lifetimeFees(client))
        yield* Queue.take(arrivals)
        yield* TestClock.adjust("3 seconds")
        assertInstanceOf(yield* Fiber.join(first), FeeShareError.Timeout)
        assert.isTrue(Option.isNone(yield* Fiber.poll(second)))
        yield* TestClock.adjust("2 seconds")
        assertInstanceOf(yield* Fiber.join(second), FeeShareError.Timeout)
        // a fresh request after both: the limit starts again from its own start
        const third = yield* Effect.fork(lifetimeFees(client))
        yield* Queue.take(arrivals)
        yield* TestClock.adjust("4 seconds")
        assert.isTrue(Option.isNone(yield* Fiber.poll(third)))
        yield* TestClock.adjust("1 second")
        assertInstanceOf(yield* Fiber.join(third), FeeShareError.Timeout)
      }).pipe(Effect.provide(server))
    }))
})
