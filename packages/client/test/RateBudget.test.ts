import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, FastCheck, TestClock } from "effect"
import { RateBudget } from "../src/index.js"

const bucket = (key: string, limit: number, windowMillis: number): RateBudget.Bucket => ({ key, limit, windowMillis })

const observation = (fields: Partial<RateBudget.Observation>): RateBudget.Observation => ({
  used: 0,
  limit: 0,
  ageMillis: 0,
  resetInMillis: 0,
  blockMillis: 0,
  ...fields
})

describe("RateBudget.memoryStore", () => {
  it.effect.prop(
    "never admits more than `limit` in any window, on its own clock, and a refusal names the exact wait",
    {
      limit: FastCheck.integer({ min: 1, max: 6 }),
      window: FastCheck.integer({ min: 1, max: 1000 }),
      steps: FastCheck.array(FastCheck.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 })
    },
    ({ limit, steps, window }) =>
      Effect.gen(function*() {
        const store = RateBudget.memoryStore()
        const k = [bucket("k", limit, window)]
        const admitted: Array<number> = []
        let now = 0
        for (const step of steps) {
          yield* TestClock.adjust(Duration.millis(step))
          now += step
          const wait = yield* store.take(k)
          const inWindow = admitted.filter((at) => at > now - window)
          if (wait === 0) {
            assert.isBelow(inWindow.length, limit)
            admitted.push(now)
          } else {
            assert.strictEqual(inWindow.length, limit)
            assert.strictEqual(wait, (inWindow[0] ?? 0) + window - now)
            // after that wait, a slot is free
            yield* TestClock.adjust(Duration.millis(wait))
            now += wait
            assert.strictEqual(yield* store.take(k), 0)
            admitted.push(now)
          }
        }
      }),
    { fastCheck: { numRuns: 40 } }
  )

  it.effect("keys are counted apart; a request counts against every bucket it names, or none", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      const a = bucket("a", 1, 1000)
      const b = bucket("b", 2, 1000)
      assert.strictEqual(yield* store.take([a]), 0)
      assert.strictEqual(yield* store.take([b]), 0)
      yield* TestClock.adjust("10 millis")
      // a is full: nothing is recorded in b either
      assert.strictEqual(yield* store.take([a, b]), 990)
      assert.strictEqual(yield* store.take([b]), 0)
      assert.strictEqual(yield* store.take([b]), 990)
      yield* TestClock.adjust("990 millis")
      assert.strictEqual(yield* store.take([a, b]), 0)
    }))

  it.effect("the service's count raises the budget's, placed at the moment of the answer", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      const k = [bucket("k", 5, 1000)]
      assert.strictEqual(yield* store.take(k), 0)
      yield* TestClock.adjust("100 millis")
      // the service counted 4 (3 spent elsewhere), 40 ms ago
      assert.strictEqual(yield* store.take(k, observation({ used: 4, limit: 5, ageMillis: 40 })), 0)
      // 5 now: the oldest (ours, at 0) leaves first, at 1000
      assert.strictEqual(yield* store.take(k), 900)
      yield* TestClock.adjust("900 millis")
      assert.strictEqual(yield* store.take(k), 0)
      // the three made elsewhere, placed at 60, leave at 1060
      assert.strictEqual(yield* store.take(k), 60)
      // a count the budget already holds changes nothing
      yield* TestClock.adjust("60 millis")
      assert.strictEqual(yield* store.take(k, observation({ used: 2, limit: 5 })), 0)
      assert.strictEqual(yield* store.take(k), 0)
      assert.strictEqual(yield* store.take(k), 0)
    }))

  it.effect("with the service's reset known, the requests made elsewhere are spread from its oldest to the answer", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      const k = [bucket("k", 4, 1000)]
      yield* TestClock.adjust("1000 millis")
      // 4 used, the oldest leaves in 200 ms (it was made at 200): placed at 200, 400, 600, 800
      yield* store.observe(k, observation({ used: 4, limit: 4, resetInMillis: 200 }))
      assert.strictEqual(yield* store.take(k), 200)
      yield* TestClock.adjust("200 millis")
      assert.strictEqual(yield* store.take(k), 0)
      assert.strictEqual(yield* store.take(k), 200)
    }))

  it.effect("a smaller limit reported by the service lowers the budget's for a window", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      const k = [bucket("k", 10, 1000)]
      yield* store.observe(k, observation({ used: 0, limit: 2 }))
      assert.strictEqual(yield* store.take(k), 0)
      assert.strictEqual(yield* store.take(k), 0)
      assert.strictEqual(yield* store.take(k), 1000)
      yield* TestClock.adjust("1000 millis")
      // forgotten after a window: the bucket's own limit again
      for (let i = 0; i < 10; i++) assert.strictEqual(yield* store.take(k), 0)
      assert.isAbove(yield* store.take(k), 0)
    }))

  it.effect("a 429 blocks every taker until the reset, even with room in the window", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      const k = [bucket("k", 100, 10_000)]
      yield* store.observe(k, observation({ used: 1, limit: 100, blockMillis: 3000, ageMillis: 500 }))
      assert.strictEqual(yield* store.take(k), 2500)
      yield* TestClock.adjust("2500 millis")
      assert.strictEqual(yield* store.take(k), 0)
    }))

  it.effect("a hostile count cannot grow the log past the bucket's limit", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      const k = [bucket("k", 3, 1000)]
      yield* store.observe(k, observation({ used: 1e9, limit: 1e9 }))
      assert.strictEqual(yield* store.take(k), 1000)
    }))
})
