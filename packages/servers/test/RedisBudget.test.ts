// The Redis store's script on a real redis-server: the sliding window on the server's clock,
// atomic multi-bucket admission, the service's corrections, prefixes, and what is stored.
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { FeeShareClient, RateBudget } from "@feeshare/client"
import * as RedisBudget from "@feeshare/client/RedisBudget"
import { Duration, Effect, Redacted } from "effect"
import { Redis } from "ioredis"
import { afterAll, beforeAll } from "vitest"
import { type RedisServer, type SandboxProcess, startRedis, startSandbox } from "../support/processes.js"

let redis: RedisServer
let sandbox: SandboxProcess

beforeAll(async () => {
  ;[redis, sandbox] = await Promise.all([startRedis(), startSandbox([])])
})

afterAll(async () => {
  await Promise.all([redis?.stop(), sandbox?.stop()])
})

const observation = (fields: Partial<RateBudget.Observation>): RateBudget.Observation => ({
  used: 0,
  limit: 0,
  ageMillis: 0,
  resetInMillis: 0,
  blockMillis: 0,
  ...fields
})

const store = (prefix: string) => RedisBudget.make({ url: redis.url, prefix })

describe("RedisBudget.make on redis-server", () => {
  it.live("a sliding window on the server's clock: the limit, then the exact wait until the oldest leaves", () =>
    Effect.gen(function*() {
      const budget = yield* store("window")
      const k = [{ key: "a", limit: 3, windowMillis: 400 }]
      for (let i = 0; i < 3; i++) assert.strictEqual(yield* budget.take(k), 0)
      const wait = yield* budget.take(k)
      assert.isAbove(wait, 0)
      assert.isAtMost(wait, 400)
      // the window slides: after the wait it names, a slot is free
      yield* Effect.sleep(Duration.millis(wait))
      assert.strictEqual(yield* budget.take(k), 0)
    }).pipe(Effect.scoped))

  it.live("a request counts against every bucket it names, or none", () =>
    Effect.gen(function*() {
      const budget = yield* store("buckets")
      const full = { key: "full", limit: 1, windowMillis: 60_000 }
      const roomy = { key: "roomy", limit: 2, windowMillis: 60_000 }
      assert.strictEqual(yield* budget.take([full]), 0)
      assert.isAbove(yield* budget.take([full, roomy]), 0)
      // nothing was recorded in `roomy` by the refusal
      assert.strictEqual(yield* budget.take([roomy]), 0)
      assert.strictEqual(yield* budget.take([roomy]), 0)
      assert.isAbove(yield* budget.take([roomy]), 0)
    }).pipe(Effect.scoped))

  it.live("the service's answers correct it: its count, its smaller limit, a 429's block", () =>
    Effect.gen(function*() {
      const budget = yield* store("corrections")
      const k = [{ key: "a", limit: 10, windowMillis: 60_000 }]
      // 4 spent elsewhere: 6 left
      yield* budget.observe(k, observation({ used: 4, limit: 10 }))
      for (let i = 0; i < 6; i++) assert.strictEqual(yield* budget.take(k), 0)
      assert.isAbove(yield* budget.take(k), 0)
      // a smaller limit from the service lowers the bucket's
      const b = [{ key: "b", limit: 10, windowMillis: 60_000 }]
      yield* budget.observe(b, observation({ used: 0, limit: 2 }))
      assert.strictEqual(yield* budget.take(b), 0)
      assert.strictEqual(yield* budget.take(b), 0)
      assert.isAbove(yield* budget.take(b), 0)
      // a 429 blocks every taker until the reset, with room in the window
      const c = [{ key: "c", limit: 10, windowMillis: 60_000 }]
      yield* budget.observe(c, observation({ blockMillis: 5000 }))
      const blocked = yield* budget.take(c)
      assert.isAbove(blocked, 4000)
      assert.isAtMost(blocked, 5000)
    }).pipe(Effect.scoped))

  it.live("prefixes keep environments apart", () =>
    Effect.gen(function*() {
      const staging = yield* store("staging")
      const production = yield* store("production")
      const k = [{ key: "a", limit: 1, windowMillis: 60_000 }]
      assert.strictEqual(yield* staging.take(k), 0)
      assert.strictEqual(yield* production.take(k), 0)
      assert.isAbove(yield* staging.take(k), 0)
    }).pipe(Effect.scoped))

  it.live("through the client: the account is the user's id from auth/me; no API key is stored, hashed or not", () =>
    Effect.gen(function*() {
      const client = yield* FeeShareClient.make({
        baseUrl: sandbox.baseUrl,
        apiKey: Redacted.make(sandbox.apiKey),
        budget: { limit: 100, window: "1 hour", store: RedisBudget.make({ url: redis.url, prefix: "accounts" }) }
      })
      yield* Effect.all([client.analytics.pools(), client.analytics.pools(), client.analytics.pools()], {
        concurrency: 3
      })
      const me = yield* client.identity.me()
      const inspect = new Redis(redis.url)
      const keys = yield* Effect.promise(() => inspect.keys("accounts:*"))
      const values = yield* Effect.promise(() =>
        Promise.all(
          keys.map(async (key): Promise<unknown> =>
            (await inspect.type(key)) === "zset" ? inspect.zrange(key, 0, -1) : inspect.get(key)
          )
        )
      )
      inspect.disconnect()
      assert.include(keys, `accounts:budget:user:${me.user.uuid}:log`)
      const everything = JSON.stringify([keys, values])
      assert.notInclude(everything, sandbox.apiKey)
      // nor a digest of it
      for (const algorithm of ["sha256", "sha1", "md5"] as const) {
        const { createHash } = yield* Effect.promise(() => import("node:crypto"))
        assert.notInclude(everything, createHash(algorithm).update(sandbox.apiKey).digest("hex"))
        assert.notInclude(everything, createHash(algorithm).update(sandbox.apiKey).digest("base64"))
      }
    }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)))

  it.live("hostile headers (limit 1e8, remaining 5e7) cost O(1) commands: three corrections run fewer than 100", () =>
    Effect.gen(function*() {
      const budget = yield* RedisBudget.make({ url: redis.url, prefix: "hostile", timeout: "30 seconds" })
      const buckets = [0, 1, 2].map((i) => [{ key: `h${i}`, limit: 200_000, windowMillis: 3_600_000 }])
      const hostile = observation({ used: 100_000_000 - 50_000_000, limit: 100_000_000, resetInMillis: 3_000_000 })
      const other = new Redis(redis.url)
      // every command Redis ran, those its scripts called included (INFO and PING, the test's own, left out)
      const commands = Effect.promise(async () =>
        [...(await other.info("commandstats")).matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)]
          .filter(([, name]) => name !== "info" && name !== "ping")
          .reduce((sum, [, , calls]) => sum + Number(calls), 0)
      )
      yield* Effect.promise(() => other.ping())
      const before = yield* commands
      yield* Effect.forEach(buckets, (k) => budget.observe(k, hostile), { concurrency: "unbounded" })
      const ran = (yield* commands) - before
      // a correction per bucket: a few commands each, whatever numbers the service sent
      assert.isAbove(ran, 0)
      assert.isBelow(ran, 100)
      // the window counts the service's requests: full, so the next take waits
      assert.isAbove(yield* budget.take(buckets[0]!), 0)
      // and nothing near the service's numbers was written: the log holds admissions only
      const entries = yield* Effect.promise(() => other.zcard("hostile:budget:h0:log"))
      const memory = yield* Effect.promise(() => other.memory("USAGE", "hostile:budget:h0:log"))
      other.disconnect()
      assert.isAtMost(entries, 200_000)
      assert.strictEqual(entries, 0)
      assert.isTrue(memory === null || Number(memory) < 10_000)
    }).pipe(Effect.scoped))

  it.live("a correction spreads the service's count over its window: slots free as its oldest leave", () =>
    Effect.gen(function*() {
      const budget = yield* store("spread")
      const k = [{ key: "a", limit: 4, windowMillis: 600 }]
      // 4 spent elsewhere, the oldest leaving in 300 ms: full now, a slot free within the window
      yield* budget.observe(k, observation({ used: 4, limit: 4, resetInMillis: 300 }))
      const wait = yield* budget.take(k)
      assert.isAbove(wait, 0)
      assert.isAtMost(wait, 600)
      yield* Effect.sleep(Duration.millis(wait))
      assert.strictEqual(yield* budget.take(k), 0)
    }).pipe(Effect.scoped))
})
