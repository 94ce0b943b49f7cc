import { assert, describe, it } from "@effect/vitest"
import { Effect, FastCheck, TestClock } from "effect"
import * as RateLimiter from "../src/RateLimiter.js"

const bucket = (key: string, limit: number, windowMillis = 1000): RateLimiter.Bucket => ({ key, limit, windowMillis })

describe("RateLimiter", () => {
  it("admits exactly `limit` requests per window, then reports the reset of the oldest", () => {
    const limiter = RateLimiter.makeUnsafe()
    const b = [bucket("ip:a", 3, 10_000)]
    const remaining = [0, 1000, 2000].map((t) => limiter.admitAt(b, t).info.remaining)
    assert.deepStrictEqual(remaining, [2, 1, 0])
    const refused = limiter.admitAt(b, 3000)
    assert.isFalse(refused.admitted)
    assert.deepStrictEqual([refused.info.limit, refused.info.remaining, refused.info.resetAt], [3, 0, 10])
    // the window slides: the first admission expires at 10 000 ms exactly
    assert.isFalse(limiter.admitAt(b, 9_999).admitted)
    assert.isTrue(limiter.admitAt(b, 10_000).admitted)
    assert.isFalse(limiter.admitAt(b, 10_001).admitted)
  })

  it("a request counts against every bucket, and only when all of them have room", () => {
    const limiter = RateLimiter.makeUnsafe()
    const user = bucket("user:u", 2)
    assert.isTrue(limiter.admitAt([user, bucket("ip:1", 5)], 0).admitted)
    assert.isTrue(limiter.admitAt([user, bucket("ip:2", 5)], 0).admitted)
    const refused = limiter.admitAt([user, bucket("ip:3", 5)], 0)
    assert.isFalse(refused.admitted)
    assert.strictEqual(refused.bucket, "user:u")
    // the refused request was not recorded against ip:3
    assert.strictEqual(limiter.admitAt([bucket("ip:3", 5)], 0).info.remaining, 4)
  })

  it("a hidden bucket is reported only when it refuses", () => {
    const limiter = RateLimiter.makeUnsafe()
    const ip = bucket("ip:a", 100)
    const agent = { ...bucket("agent:a", 1), hidden: true }
    const first = limiter.admitAt([ip, agent], 0)
    assert.deepStrictEqual([first.bucket, first.info.limit, first.info.remaining], ["ip:a", 100, 99])
    const second = limiter.admitAt([ip, agent], 0)
    assert.deepStrictEqual([second.admitted, second.bucket, second.info.limit], [false, "agent:a", 1])
  })

  it("many keys cost bounded memory: idle logs are swept, and at most maxLogs are kept", () => {
    const limiter = RateLimiter.makeUnsafe()
    for (let i = 0; i < 5_000; i++) limiter.admitAt([bucket(`ip:${i}`, 10, 1000)], 0)
    assert.isAtMost(limiter.size(), 5_000)
    // a window later, every one of them is idle: the sweep that new keys trigger drops them all
    for (let i = 0; i < 4_000; i++) limiter.admitAt([bucket(`late:${i}`, 10, 1000)], 1_001)
    assert.isAtMost(limiter.size(), 4_000)
    // a flood of live keys in one window stays under the cap
    for (let i = 0; i < RateLimiter.maxLogs * 2; i++) limiter.admitAt([bucket(`flood:${i}`, 10, 60_000)], 2_000)
    assert.isAtMost(limiter.size(), RateLimiter.maxLogs)
    // and a live key that survived still has its count
    const key = `flood:${RateLimiter.maxLogs * 2 - 1}`
    assert.strictEqual(limiter.admitAt([bucket(key, 10, 60_000)], 2_000).remaining, 8)
  })

  it.effect("admit reads the Effect Clock", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make
      const b = [bucket("k", 1, 60_000)]
      assert.isTrue((yield* limiter.admit(b)).admitted)
      assert.isFalse((yield* limiter.admit(b)).admitted)
      yield* TestClock.adjust("60 seconds")
      assert.isTrue((yield* limiter.admit(b)).admitted)
    }))

  it.prop(
    "never admits more than the limit in any window, and refuses only a full bucket",
    {
      limit: FastCheck.integer({ min: 1, max: 8 }),
      steps: FastCheck.array(FastCheck.record({ gap: FastCheck.nat(400), key: FastCheck.constantFrom("a", "b") }), {
        maxLength: 200
      })
    },
    ({ limit, steps }) => {
      const windowMillis = 1000
      const limiter = RateLimiter.makeUnsafe()
      const admitted: Record<string, Array<number>> = { a: [], b: [], shared: [] }
      let now = 0
      for (const { gap, key } of steps) {
        now += gap
        const buckets = [bucket(key, limit, windowMillis), bucket("shared", limit * 2, windowMillis)]
        const inWindow = (k: string) => admitted[k]!.filter((t) => t > now - windowMillis).length
        const room = inWindow(key) < limit && inWindow("shared") < limit * 2
        const decision = limiter.admitAt(buckets, now)
        assert.strictEqual(decision.admitted, room)
        if (decision.admitted) {
          admitted[key]!.push(now)
          admitted.shared!.push(now)
        }
      }
    }
  )
})
