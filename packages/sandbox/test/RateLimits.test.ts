import { assert, describe, it } from "@effect/vitest"
import { RateLimit } from "@feeshare/domain"
import { Effect, Option, TestClock } from "effect"
import { call, type Reply, sandbox } from "./support/http.js"
import { login, signIn } from "./support/wallet.js"

const window = 3_600_000

const infoOf = (reply: Reply) => Option.getOrThrow(RateLimit.fromHeaders(reply.headers))

const ping = (headers: Record<string, string> = {}) => call("system", "ping", { apiKey: null, headers })

describe("Rate limits", () => {
  it.effect("limit N: N requests pass with the budget counting down, request N+1 is 429 with body and headers", () =>
    Effect.gen(function*() {
      const remaining: Array<number> = []
      for (let i = 0; i < 5; i++) {
        const reply = yield* ping()
        assert.strictEqual(reply.status, 200)
        remaining.push(infoOf(reply).remaining)
      }
      assert.deepStrictEqual(remaining, [4, 3, 2, 1, 0])
      const refused = yield* call("analytics", "pools")
      assert.strictEqual(refused.status, 429)
      const resetTime = window / 1000 // the oldest request (at 0 ms) leaves the window at 3600 s
      assert.deepStrictEqual(refused.json, {
        success: false,
        error: "Rate limit exceeded",
        limit: 5,
        remaining: 0,
        resetTime
      })
      assert.deepStrictEqual(
        infoOf(refused),
        RateLimit.RateLimitInfo.make({ limit: 5, remaining: 0, resetAt: resetTime })
      )

      yield* TestClock.adjust(window - 1)
      assert.strictEqual((yield* ping()).status, 429)
      yield* TestClock.adjust(1)
      const again = yield* ping()
      assert.strictEqual(again.status, 200)
      // all five were made at 0 ms, so all five left the window together
      assert.strictEqual(infoOf(again).remaining, 4)
    }).pipe(Effect.provide(sandbox({ rateLimit: 5 }))))

  it.effect("the window slides: only the requests older than the window are forgotten", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 3; i++) assert.strictEqual((yield* ping()).status, 200)
      yield* TestClock.adjust(window / 2)
      for (let i = 0; i < 2; i++) assert.strictEqual((yield* ping()).status, 200)
      assert.strictEqual((yield* ping()).status, 429)
      yield* TestClock.adjust(window / 2)
      // the first three left the window, the last two did not
      for (let i = 0; i < 3; i++) assert.strictEqual((yield* ping()).status, 200)
      const refused = yield* ping()
      assert.strictEqual(refused.status, 429)
      assert.strictEqual((refused.json as { resetTime: number }).resetTime, (window / 2 + window) / 1000)
    }).pipe(Effect.provide(sandbox({ rateLimit: 5 }))))

  it.effect("per user: all keys of an account share one budget, whatever the IP", () =>
    Effect.gen(function*() {
      const first = yield* login("one")
      // a second key of the same wallet (same user)
      const second = yield* signIn(first.wallet, "two")
      const secondKey = (second.reply.json as { response: { apiKey: string } }).response.apiKey
      const me = (apiKey: string, ip: string) => call("identity", "me", { apiKey, headers: { "x-forwarded-for": ip } })
      for (let i = 0; i < 2; i++) assert.strictEqual((yield* me(first.apiKey, "10.0.0.1")).status, 200)
      for (let i = 0; i < 2; i++) assert.strictEqual((yield* me(secondKey, "10.0.0.2")).status, 200)
      const refused = yield* me(secondKey, "10.0.0.3")
      assert.strictEqual(refused.status, 429)
      assert.strictEqual(infoOf(refused).limit, 4)
      // another user from a fresh IP is not affected
      assert.strictEqual((yield* call("identity", "me", { headers: { "x-forwarded-for": "10.0.0.4" } })).status, 200)
    }).pipe(Effect.provide(sandbox({ rateLimit: 4, agentAuthLimit: 100, trustProxy: true }))))

  it.effect("per IP behind a trusted proxy (--trust-proxy): requests without a key count against their forwarded address", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 2; i++) assert.strictEqual((yield* ping({ "x-forwarded-for": "192.0.2.1" })).status, 200)
      assert.strictEqual((yield* ping({ "x-forwarded-for": "192.0.2.1" })).status, 429)
      assert.strictEqual((yield* ping({ "x-forwarded-for": "192.0.2.2" })).status, 200)
    }).pipe(Effect.provide(sandbox({ rateLimit: 2, trustProxy: true }))))

  it.effect("X-Forwarded-For is not trusted by default: rotating it does not buy a fresh IP budget", () =>
    Effect.gen(function*() {
      const replies: Array<number> = []
      for (let i = 0; i < 300; i++) replies.push((yield* ping({ "x-forwarded-for": `198.51.100.${i % 250}` })).status)
      assert.strictEqual(replies.filter((status) => status === 200).length, 5)
      assert.strictEqual(replies.filter((status) => status === 429).length, 295)
    }).pipe(Effect.provide(sandbox({ rateLimit: 5 }))))

  it.effect("200 concurrent clients never get more than the limit admitted", () =>
    Effect.gen(function*() {
      const replies = yield* Effect.all(Array.from({ length: 200 }, () => ping()), { concurrency: "unbounded" })
      const admitted = replies.filter((reply) => reply.status === 200)
      const refused = replies.filter((reply) => reply.status === 429)
      assert.strictEqual(admitted.length, 50)
      assert.strictEqual(refused.length, 150)
      // every admitted request saw a distinct remaining budget: 49 down to 0
      assert.deepStrictEqual(
        admitted.map((reply) => infoOf(reply).remaining).sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i)
      )
      for (const reply of refused) assert.strictEqual((reply.json as { remaining: number }).remaining, 0)
    }).pipe(Effect.provide(sandbox({ rateLimit: 50 }))))

  it.effect("burst429: the first requests are refused whatever the budget", () =>
    Effect.gen(function*() {
      const first = yield* ping()
      assert.strictEqual(first.status, 429)
      assert.deepStrictEqual(first.json, {
        success: false,
        error: "Rate limit exceeded (sandbox burst429)",
        limit: 5000,
        remaining: 0,
        resetTime: 1
      })
      assert.strictEqual((yield* ping()).status, 429)
      const third = yield* ping()
      assert.strictEqual(third.status, 200)
      // the refused bursts did not spend the budget
      assert.strictEqual(infoOf(third).remaining, 4999)
    }).pipe(Effect.provide(sandbox({ burst429: 2 }))))
})
