/**
 * Per-call overrides (`CallOptions.withCallOptions`), the answer behind a value
 * (`CallOptions.withResponse`) and the per-call debug log, against the real sandbox. Each
 * test starts its own sandbox with the knob it needs (latency, error rates, a small rate
 * limit); the requests are counted by a pass-through `fetch` (the real one underneath).
 */
import { FetchHttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { FeeShareError, RateLimit } from "@feeshare/domain"
import type * as Options from "@feeshare/sandbox/Options"
import * as Sandbox from "@feeshare/sandbox/Sandbox"
import { SandboxInfo } from "@feeshare/sandbox/Server"
import { Cause, Effect, Exit, Redacted } from "effect"
import { CallOptions, FeeShareClient } from "../src/index.js"
import { capturingLogger } from "./capture.js"

/** A client on a sandbox started with `knobs`, and the number of requests it sent. */
const withSandbox = <A, E>(
  knobs: Partial<Options.Options>,
  options: Omit<FeeShareClient.FeeShareClient.Options, "baseUrl" | "apiKey">,
  f: (client: FeeShareClient.FeeShareClient.Service, sent: () => number, apiKey: string) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const info = yield* SandboxInfo
    let count = 0
    const counting: typeof globalThis.fetch = (input, init) => {
      count++
      return globalThis.fetch(input, init)
    }
    const apiKey = Redacted.value(info.demoApiKey)
    const client = yield* FeeShareClient.make({ ...options, baseUrl: info.baseUrl, apiKey: info.demoApiKey }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    // the fetch transport reads `Fetch` from the context of each request
    return yield* f(client, () => count, apiKey).pipe(Effect.provideService(FetchHttpClient.Fetch, counting))
  }).pipe(Effect.provide(Sandbox.layer({ port: 0, slotMillis: 0, seed: "call-options", ...knobs })))

describe("CallOptions against the sandbox", () => {
  it.scopedLive("timeout: a call's own limit fails a slow answer the client's limit would wait for", () =>
    withSandbox({ latencyMillis: 400 }, { retry: { maxAttempts: 1 } }, (client, sent) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(
          client.analytics.pools().pipe(CallOptions.withCallOptions({ timeout: "50 millis" }))
        )
        assertInstanceOf(error, FeeShareError.Timeout)
        assert.strictEqual(error.message, "no response within 50 ms")
        // the client's own limit (30 s) still applies to the next call
        yield* client.analytics.pools()
        assert.strictEqual(sent(), 2)
      })))

  it.scopedLive("retry: a call's own attempts, fewer or more than the client's", () =>
    withSandbox(
      { errorRates: { 503: 1 } },
      { retry: { maxAttempts: 3, baseDelay: "1 millis" } },
      (client, sent) =>
        Effect.gen(function*() {
          const once = yield* Effect.flip(
            client.analytics.pools().pipe(CallOptions.withCallOptions({ retry: { maxAttempts: 1 } }))
          )
          assert.strictEqual(once._tag, "ServerError")
          assert.strictEqual(sent(), 1)
          yield* Effect.flip(client.analytics.pools())
          assert.strictEqual(sent(), 4)
          yield* Effect.flip(client.analytics.pools().pipe(CallOptions.withCallOptions({ retry: { maxAttempts: 5 } })))
          assert.strictEqual(sent(), 9)
        })
    ))

  it.scopedLive("layer: the same overrides for a whole program; a call's own withCallOptions wins", () =>
    withSandbox(
      { errorRates: { 503: 1 } },
      { retry: { maxAttempts: 3, baseDelay: "1 millis" } },
      (client, sent) =>
        Effect.gen(function*() {
          yield* Effect.flip(client.analytics.pools())
          assert.strictEqual(sent(), 3)
          yield* Effect.flip(client.analytics.pools()).pipe(
            Effect.zipRight(
              Effect.flip(client.analytics.pools().pipe(CallOptions.withCallOptions({ retry: { maxAttempts: 2 } })))
            ),
            Effect.provide(CallOptions.layer({ retry: { maxAttempts: 1 } }))
          )
          assert.strictEqual(sent(), 6)
        })
    ))

  it.scopedLive("maxRateLimitWait: a call may wait for the reset where the client would refuse at once", () =>
    withSandbox(
      { rateLimit: 1, rateWindowMillis: 1000 },
      { maxRateLimitWait: 0 },
      (client, sent) =>
        Effect.gen(function*() {
          yield* client.analytics.pools()
          const refused = yield* Effect.flip(client.analytics.pools())
          assertInstanceOf(refused, FeeShareError.RateLimited)
          assert.include(refused.message, "nothing was sent")
          assert.strictEqual(sent(), 1)
          // the window resets within about two seconds (the reset is in whole seconds)
          yield* client.analytics.pools().pipe(CallOptions.withCallOptions({ maxRateLimitWait: "5 seconds" }))
          assert.strictEqual(sent(), 2)
        })
    ))

  it.scopedLive("bad overrides fail with InvalidRequest naming the field, and nothing is sent", () =>
    withSandbox({}, {}, (client, sent) =>
      Effect.gen(function*() {
        const cases = [
          [{ timeout: 0 }, "timeout"],
          [{ timeout: Number.POSITIVE_INFINITY }, "timeout"],
          [{ retry: { maxAttempts: 0 } }, "retry.maxAttempts"],
          [{ retry: { maxAttempts: 1.5 } }, "retry.maxAttempts"],
          // Effect's Duration clamps these to zero ("do not wait"): refused instead
          [{ maxRateLimitWait: -1 }, "maxRateLimitWait"],
          [{ maxRateLimitWait: -1n }, "maxRateLimitWait"],
          [{ maxRateLimitWait: [-1, 0] }, "maxRateLimitWait"]
        ] as const
        for (const [options, field] of cases) {
          const error = yield* Effect.flip(client.analytics.pools().pipe(CallOptions.withCallOptions(options)))
          assertInstanceOf(error, FeeShareError.InvalidRequest)
          assert.strictEqual(error.field, field)
        }
        assert.strictEqual(sent(), 0)
      })))

  it.scopedLive("withResponse: the value with its status, headers and rate-limit snapshot", () =>
    withSandbox({}, {}, (client, _sent, apiKey) =>
      Effect.gen(function*() {
        const response = yield* CallOptions.withResponse(client.analytics.pools())
        assert.strictEqual(response.status, 200)
        assert.isArray(response.data)
        assertInstanceOf(response.rateLimit, RateLimit.RateLimitInfo)
        assert.strictEqual(response.headers[RateLimit.headerNames.limit], String(response.rateLimit.limit))
        assert.notInclude(JSON.stringify(response.headers), apiKey)
        // no operation, no answer: a defect
        const exit = yield* Effect.exit(CallOptions.withResponse(Effect.void))
        assert.isTrue(Exit.isFailure(exit) && Cause.isDie(exit.cause))
      })))

  it.scopedLive("at Debug, each call logs its outcome in a log span with its annotations, never the key", () =>
    withSandbox(
      { errorRates: { 500: 1 } },
      { retry: { maxAttempts: 2, baseDelay: "1 millis" } },
      (client, _sent, apiKey) =>
        Effect.gen(function*() {
          const { lines, provide } = capturingLogger()
          yield* Effect.flip(provide(client.analytics.pools()))
          const failed = lines.find((line) => line.includes("failed"))
          assert.isDefined(failed)
          assert.include(failed, "\"operation\":\"analytics.pools\"")
          assert.include(failed, "\"failure\":\"ServerError\"")
          assert.include(failed, "analytics.pools")
          assert.isTrue(lines.some((line) => line.includes("retrying") && line.includes("delayMillis")))
          for (const line of lines) assert.notInclude(line, apiKey)
        })
    ))
})
