// The client's side of a shared budget, against a recording store: the account named once from
// auth/me, the buckets, the service's counts handed to the store, 429s shared, a store failure
// typed as BudgetUnavailable with nothing sent.
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { FeeShareError, RateLimit } from "@feeshare/domain"
import { Effect, Fiber, Queue, Redacted, TestClock } from "effect"
import { RateBudget } from "../src/index.js"
import * as F from "./fixtures.js"
import { apiKey, apiServer, json, makeClient, type Received, scripted, type Seen, success } from "./servers.js"

interface Call {
  readonly kind: "take" | "observe"
  readonly keys: ReadonlyArray<string>
  readonly observation: RateBudget.Observation | undefined
}

/** The in-memory algorithm, marked shared, recording every call; `failing` makes it fail. */
const recordingStore = (calls: Array<Call>, state: { failing: boolean } = { failing: false }): RateBudget.Store => {
  const memory = RateBudget.memoryStore()
  const fail = RateBudget.unavailable("test-store", "connection refused")
  return {
    name: "test-store",
    shared: true,
    take: (buckets, observation) =>
      Effect.suspend(() => {
        calls.push({ kind: "take", keys: buckets.map((b) => b.key), observation })
        return state.failing ? Effect.fail(fail) : memory.take(buckets, observation)
      }),
    observe: (buckets, observation) =>
      Effect.suspend(() => {
        calls.push({ kind: "observe", keys: buckets.map((b) => b.key), observation })
        return state.failing ? Effect.fail(fail) : memory.observe(buckets, observation)
      })
  }
}

describe("a shared budget", () => {
  it.scoped("names the account once from auth/me (concurrent first calls), counts the address too, passes the service's counts on", () =>
    Effect.gen(function*() {
      const received: Array<Received> = []
      const calls: Array<Call> = []
      yield* Effect.gen(function*() {
        const client = yield* makeClient({
          apiKey: Redacted.make(apiKey),
          budget: { limit: 100, window: "1 hour", store: recordingStore(calls), address: "egress-1" }
        })
        yield* Effect.all(Array.from({ length: 4 }, () => client.analytics.pools()), { concurrency: 4 })
        yield* client.analytics.pools()
      }).pipe(Effect.provide(apiServer(received, { limit: 100 })))
      assert.deepStrictEqual(received.filter((r) => r.operation === "identity.me").length, 1)
      assert.strictEqual(received.length, 6)
      assert.strictEqual(calls.length, 5)
      for (const call of calls) {
        assert.deepStrictEqual(call, { ...call, kind: "take", keys: ["user:user-1", "address:egress-1"] })
      }
      // the first admission carries auth/me's count (1 used); the last, the 5th answer's
      assert.strictEqual(calls[0]?.observation?.used, 1)
      const last = calls.at(-1)?.observation
      assert.deepStrictEqual([last?.used, last?.limit, last?.blockMillis], [5, 100, 0])
      // the service's reset, an hour after the answer (whole seconds)
      assert.approximately(last?.resetInMillis ?? 0, 3_600_000, 1000)
      // nothing of the key reaches the store
      assert.notInclude(JSON.stringify(calls), apiKey)
    }))

  it.scoped("an explicit key needs no auth/me; without an API key the account is anonymous", () =>
    Effect.gen(function*() {
      const received: Array<Received> = []
      const calls: Array<Call> = []
      yield* Effect.gen(function*() {
        const named = yield* makeClient({
          apiKey: Redacted.make(apiKey),
          budget: { limit: 100, window: "1 hour", store: recordingStore(calls), key: "bots" }
        })
        yield* named.analytics.pools()
        const anonymous = yield* makeClient({ budget: { limit: 100, window: "1 hour", store: recordingStore(calls) } })
        yield* anonymous.ping()
      }).pipe(Effect.provide(apiServer(received)))
      assert.deepStrictEqual(received.map((r) => r.operation), ["analytics.pools", "ping"])
      assert.deepStrictEqual(calls.map((c) => c.keys), [["account:bots"], ["account:anonymous"]])
    }))

  it.scoped("a store that fails: BudgetUnavailable naming the operation and the store; nothing is sent", () =>
    Effect.gen(function*() {
      const received: Array<Received> = []
      const calls: Array<Call> = []
      yield* Effect.gen(function*() {
        const client = yield* makeClient({
          apiKey: Redacted.make(apiKey),
          budget: { limit: 100, window: "1 hour", store: recordingStore(calls, { failing: true }), key: "bots" }
        })
        const error = yield* Effect.flip(client.analytics.pools())
        assertInstanceOf(error, FeeShareError.BudgetUnavailable)
        assert.deepStrictEqual([error.status, error.operation, error.store], [0, "analytics.pools", "test-store"])
        assert.include(error.message, "nothing was sent")
      }).pipe(Effect.provide(apiServer(received)))
      assert.strictEqual(received.length, 0)
    }))

  it.scoped("a 429 is shared: every process sharing the store waits until its reset", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const calls: Array<Call> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      const server = scripted(seen, (_request, entry) =>
        Queue.offer(arrivals, entry).pipe(Effect.zipRight(
          entry.n === 1
            ? json(
              { success: false, error: "Too many requests", limit: 50, remaining: 0, resetTime: 3 },
              429,
              RateLimit.toHeaders(new RateLimit.RateLimitInfo({ limit: 50, remaining: 0, resetAt: 3 }))
            )
            : json(success("5"))
        )))
      yield* Effect.gen(function*() {
        const store = recordingStore(calls)
        const client = yield* makeClient({ budget: { limit: 100, window: "1 hour", store, key: "bots" } })
        const fiber = yield* Effect.fork(client.analytics.lifetimeFees({ tokenMint: F.tokenMint }))
        yield* Queue.take(arrivals)
        // another process of the fleet is held back until the reset
        while (!calls.some((c) => c.kind === "observe")) yield* Effect.yieldNow()
        const buckets = [{ key: "account:bots", limit: 100, windowMillis: 3_601_000 }]
        assert.strictEqual(yield* store.take(buckets), 3000)
        yield* TestClock.adjust("3 seconds")
        assert.strictEqual(yield* Fiber.join(fiber), 5n)
      }).pipe(Effect.provide(server))
      const observed = calls.find((c) => c.kind === "observe")
      assert.deepStrictEqual(observed?.observation, {
        used: 0,
        limit: 50,
        ageMillis: 0,
        resetInMillis: 3000,
        blockMillis: 3000
      })
    }))
})
