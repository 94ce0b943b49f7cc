import { assert, describe, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Option, TestClock } from "effect"
import { call, sandbox } from "./support/http.js"

/** Lets pending I/O run until the server has registered a sleep on the TestClock. */
const untilServerSleeps = Effect.gen(function*() {
  while (Chunk.isEmpty(yield* TestClock.sleeps())) {
    yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
  }
})

const statuses = (count: number) =>
  Effect.forEach(Array.from({ length: count }), () => Effect.map(call("system", "ping"), (reply) => reply.status))

describe("Knobs", () => {
  it.effect("latency: the answer waits for the configured delay on the Clock", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(call("system", "ping"))
      yield* untilServerSleeps
      yield* TestClock.adjust(999)
      assert.isTrue(Option.isNone(yield* Fiber.poll(fiber)))
      yield* TestClock.adjust(1)
      const reply = yield* Fiber.join(fiber)
      assert.strictEqual(reply.status, 200)
    }).pipe(Effect.provide(sandbox({ latencyMillis: 1000 }))))

  it.effect("errorRates: injected statuses at the given rate, deterministic from the seed", () =>
    Effect.gen(function*() {
      const run = (seed: string) => statuses(60).pipe(Effect.provide(sandbox({ seed, errorRates: { 503: 0.5 } })))
      const first = yield* run("a")
      assert.deepStrictEqual(yield* run("a"), first)
      const failed = first.filter((s) => s === 503).length
      assert.deepStrictEqual(new Set(first), new Set([200, 503]))
      assert.isAbove(failed, 10)
      assert.isBelow(failed, 50)
      assert.notDeepEqual(yield* run("b"), first)
    }))

  it.effect("errorRates 429: a 429 body with the current budget", () =>
    Effect.gen(function*() {
      const reply = yield* call("system", "ping")
      assert.strictEqual(reply.status, 429)
      assert.deepStrictEqual(reply.json, {
        success: false,
        error: "Rate limit exceeded",
        limit: 10,
        remaining: 9,
        resetTime: 3600
      })
    }).pipe(Effect.provide(sandbox({ rateLimit: 10, errorRates: { 429: 1 } }))))
})
