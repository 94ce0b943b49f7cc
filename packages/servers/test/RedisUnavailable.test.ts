// Redis killed (SIGKILL) while a client uses it: the documented behaviour of each
// `onUnavailable` choice, against the sandbox (a separate process).
import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { FeeShareClient } from "@feeshare/client"
import * as RedisBudget from "@feeshare/client/RedisBudget"
import { FeeShareError } from "@feeshare/domain"
import { Effect, Either, Layer, Logger, Option, Redacted, SubscriptionRef } from "effect"
import { Redis } from "ioredis"
import { afterAll, beforeAll } from "vitest"
import { type SandboxProcess, startRedis, startSandbox } from "../support/processes.js"

let sandbox: SandboxProcess

beforeAll(async () => {
  sandbox = await startSandbox([])
})

afterAll(async () => {
  await sandbox?.stop()
})

/** Undici, counting the requests that leave. */
const counting = (sent: { count: number }) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, HttpClient.tapRequest(() => Effect.sync(() => sent.count++)))
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

/** Log lines at warning level and above, and the info notes of the budget. */
const recording = (logs: Array<string>) =>
  Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ logLevel, message }) => {
      logs.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
    })
  )

const password = "s3cret-redis-pass"

describe("Redis killed or frozen mid-run", () => {
  it.live("onUnavailable fail (the default): BudgetUnavailable at once, within the deadline, nothing sent; no hang, no queue", () =>
    Effect.gen(function*() {
      const redis = yield* Effect.promise(() => startRedis({ password }))
      const sent = { count: 0 }
      const logs: Array<string> = []
      yield* Effect.gen(function*() {
        const client = yield* FeeShareClient.make({
          baseUrl: sandbox.baseUrl,
          apiKey: Redacted.make(sandbox.apiKey),
          budget: {
            limit: 1000,
            window: "1 hour",
            key: "kill-fail",
            store: RedisBudget.make({ url: Redacted.make(redis.url), timeout: "300 millis" })
          }
        })
        for (let i = 0; i < 3; i++) yield* client.analytics.pools()
        // the requests are counted in Redis, under the account's name
        const inspect = new Redis(redis.url)
        assert.strictEqual(yield* Effect.promise(() => inspect.zcard("feeshare:budget:account:kill-fail:log")), 3)
        inspect.disconnect()
        assert.strictEqual(sent.count, 3)

        yield* Effect.promise(() => redis.kill())
        const started = Date.now()
        const outcomes = yield* Effect.all(Array.from({ length: 20 }, () => Effect.either(client.analytics.pools())), {
          concurrency: "unbounded"
        })
        const elapsed = Date.now() - started
        assert.isBelow(elapsed, 2000)
        for (const outcome of outcomes) {
          assert.isTrue(Either.isLeft(outcome))
          if (Either.isRight(outcome)) continue
          const error = outcome.left
          assertInstanceOf(error, FeeShareError.BudgetUnavailable)
          assert.strictEqual(error.status, 0)
          assert.strictEqual(error.operation, "analytics.pools")
          assert.match(error.store, /^redis:\/\/127\.0\.0\.1:\d+\/0$/)
          assert.include(error.message, "nothing was sent")
          assert.notInclude(error.message + error.store, password)
        }
        assert.strictEqual(sent.count, 3)
      }).pipe(
        Effect.scoped,
        Effect.provide(counting(sent)),
        Effect.provide(recording(logs)),
        Effect.ensuring(Effect.promise(() => redis.stop()))
      )
      assert.notInclude(logs.join("\n"), password)
    }))

  it.live("Redis frozen (SIGSTOP): every admission fails at its deadline, none queues past it; answers again once thawed", () =>
    Effect.gen(function*() {
      const redis = yield* Effect.promise(() => startRedis())
      const sent = { count: 0 }
      yield* Effect.gen(function*() {
        const client = yield* FeeShareClient.make({
          baseUrl: sandbox.baseUrl,
          apiKey: Redacted.make(sandbox.apiKey),
          budget: {
            limit: 1000,
            window: "1 hour",
            key: "frozen",
            store: RedisBudget.make({ url: redis.url, timeout: "250 millis" })
          }
        })
        yield* client.analytics.pools()
        redis.freeze()
        const started = Date.now()
        const outcomes = yield* Effect.all(Array.from({ length: 10 }, () => Effect.either(client.analytics.pools())), {
          concurrency: "unbounded"
        })
        const elapsed = Date.now() - started
        assert.isAtLeast(elapsed, 200)
        assert.isBelow(elapsed, 1500)
        for (const outcome of outcomes) {
          assert.isTrue(Either.isLeft(outcome) && outcome.left._tag === "BudgetUnavailable")
          if (Either.isLeft(outcome)) assert.include(outcome.left.message, "no answer within 250 ms")
        }
        assert.strictEqual(sent.count, 1)
        redis.thaw()
        yield* client.analytics.pools()
        assert.strictEqual(sent.count, 2)
      }).pipe(
        Effect.scoped,
        Effect.provide(counting(sent)),
        Effect.ensuring(Effect.promise(() => redis.stop()))
      )
    }))

  it.live("onUnavailable local: calls go on with this process's budget, one warning for the outage", () =>
    Effect.gen(function*() {
      const redis = yield* Effect.promise(() => startRedis())
      const sent = { count: 0 }
      const logs: Array<string> = []
      yield* Effect.gen(function*() {
        const client = yield* FeeShareClient.make({
          baseUrl: sandbox.baseUrl,
          apiKey: Redacted.make(sandbox.apiKey),
          maxRateLimitWait: "1 second",
          budget: {
            limit: 20,
            window: "1 hour",
            key: "kill-local",
            store: RedisBudget.make({ url: redis.url, timeout: "300 millis", onUnavailable: "local" })
          }
        })
        for (let i = 0; i < 3; i++) yield* client.analytics.pools()
        // what the service counted for the account so far (this file's other test included)
        const known = yield* SubscriptionRef.get(client.rateLimit)
        assert.isTrue(Option.isSome(known))
        const used = Option.isSome(known) ? known.value.limit - known.value.remaining : 0
        assert.isAtLeast(used, 3)
        assert.isBelow(used, 20)
        yield* Effect.promise(() => redis.kill())
        // the local budget learns the service's count from the latest answer: 20 - used more pass,
        // then the next would wait beyond maxRateLimitWait
        for (let i = used; i < 20; i++) yield* client.analytics.pools()
        const error = yield* Effect.flip(client.analytics.pools())
        assertInstanceOf(error, FeeShareError.RateLimited)
        assert.strictEqual(error.status, 0)
        assert.strictEqual(sent.count, 3 + 20 - used)
      }).pipe(
        Effect.scoped,
        Effect.provide(counting(sent)),
        Effect.provide(recording(logs)),
        Effect.ensuring(Effect.promise(() => redis.stop()))
      )
      const warnings = logs.filter((line) => line.startsWith("WARN"))
      assert.strictEqual(warnings.length, 1)
      assert.include(warnings[0], "counting in this process only")
    }))
})
