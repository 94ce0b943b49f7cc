import { assert, describe, it } from "@effect/vitest"
import { Effect, FastCheck } from "effect"
import { RateBudget } from "../src/index.js"

describe("RateBudget.memoryStore", () => {
  it.effect.prop(
    "never admits more than `limit` in any window, and a refusal names the exact wait",
    {
      limit: FastCheck.integer({ min: 1, max: 6 }),
      window: FastCheck.integer({ min: 1, max: 1000 }),
      steps: FastCheck.array(FastCheck.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 })
    },
    ({ limit, steps, window }) =>
      Effect.gen(function*() {
        const store = RateBudget.memoryStore()
        const admitted: Array<number> = []
        let now = 0
        for (const step of steps) {
          now += step
          const wait = yield* store.take("k", limit, window, now)
          const inWindow = admitted.filter((at) => at > now - window)
          if (wait === 0) {
            assert.isBelow(inWindow.length, limit)
            admitted.push(now)
          } else {
            assert.strictEqual(inWindow.length, limit)
            assert.strictEqual(wait, (inWindow[0] ?? 0) + window - now)
            // after that wait, a slot is free
            assert.strictEqual(yield* store.take("k", limit, window, now + wait), 0)
            admitted.push(now + wait)
            now += wait
          }
        }
      }),
    { fastCheck: { numRuns: 40 } }
  )

  it.scoped("keys are counted apart", () =>
    Effect.gen(function*() {
      const store = RateBudget.memoryStore()
      assert.strictEqual(yield* store.take("a", 1, 1000, 0), 0)
      assert.strictEqual(yield* store.take("b", 1, 1000, 0), 0)
      assert.strictEqual(yield* store.take("a", 1, 1000, 10), 990)
      assert.strictEqual(yield* store.take("a", 1, 1000, 1000), 0)
    }))
})
