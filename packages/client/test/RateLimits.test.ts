import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { FeeShareError, PublicKey, RateLimit } from "@feeshare/domain"
import { Chunk, Clock, Effect, Fiber, Queue, TestClock } from "effect"
import type { FeeShareClient } from "../src/index.js"
import * as F from "./fixtures.js"
import { json, makeClient, scripted, type Seen, success } from "./servers.js"

const lifetimeFees = (client: FeeShareClient.FeeShareClient.Service) =>
  client.analytics.lifetimeFees({ tokenMint: F.tokenMint })

const tooMany = (resetTime: number) =>
  json(
    { success: false, error: "Too many requests", limit: 100, remaining: 0, resetTime },
    429,
    RateLimit.toHeaders(new RateLimit.RateLimitInfo({ limit: 100, remaining: 0, resetAt: resetTime }))
  )

/** Resolves once some fiber sleeps on the TestClock (a real signal: the sleep is registered). */
const untilSomeoneSleeps = Effect.gen(function*() {
  while (Chunk.isEmpty(yield* TestClock.sleeps())) {
    yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
  }
})

describe("429 answers", () => {
  it.scoped("waits until resetTime, then sends again and succeeds", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      const server = scripted(seen, (_request, entry) =>
        Queue.offer(arrivals, entry).pipe(
          Effect.zipRight(entry.n === 1 ? tooMany(Math.floor(entry.at / 1000) + 2) : json(success("7")))
        ))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const fiber = yield* Effect.fork(lifetimeFees(client))
        yield* Queue.take(arrivals)
        yield* TestClock.adjust("2 seconds")
        assert.strictEqual(yield* Fiber.join(fiber), 7n)
        assert.deepStrictEqual(seen.map((entry) => entry.at), [0, 2000])
      }).pipe(Effect.provide(server))
    }))

  it.scoped("429 storm (resetTime 2 s ahead for 6 s): at most one request per window, then success", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      const server = scripted(seen, (_request, entry) =>
        Queue.offer(arrivals, entry).pipe(
          Effect.zipRight(entry.at < 6000 ? tooMany((Math.floor(entry.at / 2000) + 1) * 2) : json(success("9")))
        ))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const fiber = yield* Effect.fork(lifetimeFees(client))
        for (let window = 0; window < 3; window++) {
          yield* Queue.take(arrivals)
          yield* TestClock.adjust("2 seconds")
        }
        assert.strictEqual(yield* Fiber.join(fiber), 9n)
        assert.deepStrictEqual(seen.map((entry) => entry.at), [0, 2000, 4000, 6000])
      }).pipe(Effect.provide(server))
    }))

  it.scoped("429 storm: fails fast with RateLimited when the wait exceeds maxRateLimitWait", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const server = scripted(seen, (_request, entry) => tooMany(Math.floor(entry.at / 1000) + 2))
      yield* Effect.gen(function*() {
        const client = yield* makeClient({ maxRateLimitWait: "1 second" })
        const error = yield* Effect.flip(lifetimeFees(client))
        assertInstanceOf(error, FeeShareError.RateLimited)
        assert.deepStrictEqual([error.status, error.limit, error.remaining, error.resetAt], [429, 100, 0, 2])
        assert.strictEqual(seen.length, 1)
        assert.strictEqual(yield* Clock.currentTimeMillis, 0)
      }).pipe(Effect.provide(server))
    }))

  it.scoped("429 storm: the waits of one call share one budget", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      const server = scripted(seen, (_request, entry) =>
        Queue.offer(arrivals, entry).pipe(Effect.zipRight(tooMany((Math.floor(entry.at / 2000) + 1) * 2))))
      yield* Effect.gen(function*() {
        const client = yield* makeClient({ maxRateLimitWait: "3 seconds" })
        const fiber = yield* Effect.fork(Effect.flip(lifetimeFees(client)))
        yield* Queue.take(arrivals)
        yield* TestClock.adjust("2 seconds")
        const error = yield* Fiber.join(fiber)
        assertInstanceOf(error, FeeShareError.RateLimited)
        assert.strictEqual(error.resetAt, 4)
        assert.deepStrictEqual(
          seen.map((entry) =>
            entry.at
          ),
          [0, 2000]
        )
      }).pipe(Effect.provide(server))
    }))

  it.scoped("the same window is never waited for twice", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      // a server whose window does not move: resetTime stays at 1 s
      const server = scripted(seen, (_request, entry) => Queue.offer(arrivals, entry).pipe(Effect.zipRight(tooMany(1))))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const fiber = yield* Effect.fork(Effect.flip(lifetimeFees(client)))
        yield* Queue.take(arrivals)
        yield* TestClock.adjust("1 second")
        assertInstanceOf(yield* Fiber.join(fiber), FeeShareError.RateLimited)
        assert.strictEqual(seen.length, 2)
      }).pipe(Effect.provide(server))
    }))

  it.scoped("the agent-auth callback is not sent again after a 429", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const server = scripted(seen, (_request, entry) => tooMany(Math.floor(entry.at / 1000) + 1))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const signature = PublicKey.base58.encode(new Uint8Array(64).fill(9))
        const error = yield* Effect.flip(
          client.agentAuth.callback({ signature, address: F.wallet, nonce: "nonce-1", keyName: "ci" })
        )
        assertInstanceOf(error, FeeShareError.RateLimited)
        assert.include(error.message, "start again from agentAuth.init")
        assert.strictEqual(seen.length, 1)
      }).pipe(Effect.provide(server))
    }))
})

describe("a spent window (remaining 0)", () => {
  const spentUntil = (resetAt: number) =>
    scripted([], () =>
      json(
        success("1"),
        200,
        RateLimit.toHeaders(new RateLimit.RateLimitInfo({ limit: 100, remaining: 0, resetAt }))
      ))

  it.scoped("the next call waits for the reset instead of spending a request on a sure 429", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const server = scripted(seen, (_request, entry) =>
        json(
          success("1"),
          200,
          RateLimit.toHeaders(
            new RateLimit.RateLimitInfo({ limit: 100, remaining: entry.n === 1 ? 0 : 99, resetAt: 5 })
          )
        ))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        yield* lifetimeFees(client)
        const fiber = yield* Effect.fork(lifetimeFees(client))
        yield* untilSomeoneSleeps
        assert.strictEqual(seen.length, 1)
        yield* TestClock.adjust("5 seconds")
        assert.strictEqual(yield* Fiber.join(fiber), 1n)
        assert.deepStrictEqual(seen.map((entry) => entry.at), [0, 5000])
      }).pipe(Effect.provide(server))
    }))

  it.scoped("a reset beyond maxRateLimitWait fails at once with RateLimited; nothing is sent", () =>
    Effect.gen(function*() {
      const client = yield* makeClient()
      yield* lifetimeFees(client)
      const error = yield* Effect.flip(lifetimeFees(client))
      assertInstanceOf(error, FeeShareError.RateLimited)
      assert.deepStrictEqual([error.status, error.remaining, error.resetAt], [0, 0, 120])
      assert.include(error.message, "nothing was sent")
    }).pipe(Effect.provide(spentUntil(120))))
})

describe("client-side budget", () => {
  it.scoped("limit 10 per window, 25 calls from 5 fibers: no 429, at most 10 requests per window", () =>
    Effect.gen(function*() {
      const windowMillis = 10_000
      const seen: Array<Seen> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      let rejected = 0
      // the server enforces the same sliding window and would answer 429 past it
      const server = scripted(seen, (_request, entry) => {
        const inWindow = seen.filter((other) => other.at > entry.at - windowMillis && other.n <= entry.n).length
        if (inWindow > 10) rejected++
        return Queue.offer(arrivals, entry).pipe(
          Effect.zipRight(inWindow > 10 ? tooMany(Math.floor((entry.at + windowMillis) / 1000)) : json(success("3")))
        )
      })
      yield* Effect.gen(function*() {
        const client = yield* makeClient({ budget: { limit: 10, window: "10 seconds", margin: 0 } })
        const caller = Effect.forEach([1, 2, 3, 4, 5], () => lifetimeFees(client))
        const fiber = yield* Effect.fork(Effect.all([caller, caller, caller, caller, caller], { concurrency: 5 }))
        for (const batch of [10, 10, 5]) {
          for (let i = 0; i < batch; i++) yield* Queue.take(arrivals)
          if (batch === 10) yield* TestClock.adjust("10 seconds")
        }
        const results = yield* Fiber.join(fiber)
        assert.strictEqual(results.flat().length, 25)
        assert.strictEqual(rejected, 0)
        assert.strictEqual(seen.length, 25)
        for (const entry of seen) {
          assert.isAtMost(seen.filter((other) => other.at > entry.at - windowMillis && other.at <= entry.at).length, 10)
        }
        assert.deepStrictEqual([0, 10_000, 20_000].map((at) => seen.filter((entry) => entry.at === at).length), [
          10,
          10,
          5
        ])
      }).pipe(Effect.provide(server))
    }))

  it.scoped("a budget wait beyond maxRateLimitWait fails with RateLimited; nothing is sent", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      yield* Effect.gen(function*() {
        const client = yield* makeClient({ budget: { limit: 2, window: "1 hour" } })
        yield* lifetimeFees(client)
        yield* lifetimeFees(client)
        const error = yield* Effect.flip(lifetimeFees(client))
        assertInstanceOf(error, FeeShareError.RateLimited)
        // the window plus the default margin of 1 s
        assert.deepStrictEqual([error.status, error.limit, error.remaining, error.resetAt], [0, 2, 0, 3601])
        assert.strictEqual(seen.length, 2)
      }).pipe(Effect.provide(scripted(seen, () => json(success("1")))))
    }))
})
