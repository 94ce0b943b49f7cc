import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { FeeShareError, RateLimit } from "@feeshare/domain"
import { Cause, Effect, Exit, Inspectable, Redacted } from "effect"
import { inspect } from "node:util"
import { capturingLogger, recordingTracer } from "./capture.js"
import * as F from "./fixtures.js"
import { json, makeClient, raw, reset, scripted, type Seen, success } from "./servers.js"

const headers = (remaining: number) =>
  RateLimit.toHeaders(new RateLimit.RateLimitInfo({ limit: 100, remaining, resetAt: 1_900_000_000 }))

describe("spans", () => {
  it.scopedLive("one client span per call, named after the operation, with status and remaining", () => {
    const { spans, tracer } = recordingTracer()
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient({ retry: { baseDelay: "1 millis" } })
      yield* client.claims.positions({ wallet: F.wallet })
      yield* Effect.flip(client.identity.me())
      const ours = spans.filter((span) => span.kind === "client" && span.attributes.has("feeshare.operation"))
      assert.deepStrictEqual(ours.map((span) => span.name), ["claims.positions", "identity.me"])
      const [positions, me] = ours
      assert.strictEqual(positions?.attributes.get("http.response.status_code"), 200)
      assert.strictEqual(positions?.attributes.get("feeshare.rate_limit.remaining"), 97)
      assert.strictEqual(positions?.attributes.get("feeshare.attempts"), 2)
      assert.strictEqual(positions?.attributes.get("http.request.method"), "GET")
      assert.isTrue(positions?.exit !== undefined && Exit.isSuccess(positions.exit))
      assert.strictEqual(me?.attributes.get("http.response.status_code"), 404)
      assert.isTrue(me?.exit !== undefined && Exit.isFailure(me.exit))
    }).pipe(
      Effect.withTracer(tracer),
      Effect.provide(scripted(seen, (_request, { n }) =>
        n === 1
          ? json({ success: false, error: "busy" }, 503, headers(98))
          : n === 2
          ? json(success(F.positions), 200, headers(97))
          : json({ success: false, error: "user not found" }, 404, headers(96))))
    )
  })
})

describe("the API key never leaks", () => {
  const secret = "fs-live-SECRET-3f9a1c7e5b2d4086"

  it.scopedLive("not in logs, spans, error messages, toJSON, toString or inspect, even when the server echoes it", () => {
    const { spans, tracer } = recordingTracer()
    const { lines, provide } = capturingLogger()
    const seen: Array<Seen> = []
    const server = scripted(seen, (request, { n }) => {
      switch (n) {
        case 1:
          return json({ success: false, error: `invalid api key ${secret}` }, 401)
        case 2:
          return raw(`<html>upstream rejected key=${secret}</html>`, 502, "text/html")
        case 3:
          return json({ success: false, error: `maintenance for ${secret}` }, 200)
        case 4:
          return raw(JSON.stringify(success(secret)), 200, "text/plain")
        case 5:
          return json(success(`not-an-amount-${secret}`))
        case 10:
          return json({ success: false, error: `slow down ${secret}`, limit: 1, remaining: 0, resetTime: 4e9 }, 429)
        default:
          return reset(request)
      }
    })
    return Effect.gen(function*() {
      const client = yield* makeClient({ apiKey: Redacted.make(secret), retry: { maxAttempts: 1 } })
      const failures: Array<unknown> = []
      for (let i = 0; i < 6; i++) {
        failures.push(yield* Effect.flip(client.analytics.lifetimeFees({ tokenMint: F.tokenMint })))
      }
      // retries with debug logs, and a call that gives up
      const retrying = yield* makeClient({
        apiKey: Redacted.make(secret),
        retry: { baseDelay: "1 millis", maxAttempts: 2 }
      })
      failures.push(yield* Effect.flip(retrying.analytics.pools()))
      failures.push(yield* Effect.flip(client.claims.positions({ wallet: secret })))
      // an untyped caller passing the key where a literal belongs: the rule quotes the value
      const quoted = yield* Effect.flip(
        client.trade.quote({ ...F.quoteRequest, slippageMode: JSON.parse(JSON.stringify(secret)) })
      )
      assertInstanceOf(quoted, FeeShareError.InvalidRequest)
      assert.include(quoted.rule, "[redacted]")
      failures.push(quoted)
      failures.push(yield* Effect.exit(client.identity.me()))
      // a 429 whose reset (2096) is not believed: the next call is held back for the wait
      // budget only, then sent (once: this server resets it)
      const limited = yield* makeClient({
        apiKey: Redacted.make(secret),
        maxRateLimitWait: "1 millis",
        retry: { maxAttempts: 1 }
      })
      failures.push(yield* Effect.flip(limited.identity.me()))
      failures.push(yield* Effect.flip(limited.identity.me()))
      yield* Effect.logError("client failed", failures[0])

      // the key was sent: the server saw it on every request
      assert.strictEqual(seen.length, 11)
      assert.isTrue(seen.every((entry) => entry.apiKey === secret))
      assertInstanceOf(failures[0], FeeShareError.Unauthorized)
      assert.strictEqual(failures[0].message, "invalid api key [redacted]")

      const rendered: Array<string> = [...lines]
      for (const failure of failures) {
        rendered.push(
          String(failure),
          JSON.stringify(failure),
          Inspectable.format(failure),
          inspect(failure, { depth: 20 }),
          Exit.isExit(failure) ? Cause.pretty(Exit.isFailure(failure) ? failure.cause : Cause.empty) : "",
          Cause.pretty(Cause.fail(failure)),
          failure instanceof Error ? String(failure.stack) : ""
        )
      }
      for (const span of spans) {
        rendered.push(span.name, inspect([...span.attributes], { depth: 10 }), JSON.stringify(span.events))
        if (span.exit !== undefined && Exit.isFailure(span.exit)) rendered.push(Cause.pretty(span.exit.cause))
      }
      rendered.push(String(client), inspect(client, { depth: 10 }), JSON.stringify(client.rateLimit))
      assert.isAbove(lines.length, 0)
      assert.isAbove(spans.length, 9)
      const leaks = rendered.filter((text) => text.includes(secret))
      assert.deepStrictEqual(leaks, [])
      // a prefix of the key is not in there either
      assert.isFalse(rendered.some((text) => text.includes(secret.slice(0, 16))))
    }).pipe(provide, Effect.withTracer(tracer), Effect.provide(server))
  })
})
