import type { HttpServerRequest } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { assertInstanceOf } from "@effect/vitest/utils"
import { Api, FeeShareError, PublicKey } from "@feeshare/domain"
import { Chunk, Deferred, Duration, Effect, Exit, FastCheck, Fiber, Queue, Random, Schedule, TestClock } from "effect"
import { RetryPolicy } from "../src/index.js"
import * as F from "./fixtures.js"
import { json, makeClient, raw, reset, scripted, type Seen, success } from "./servers.js"

/** Real time, short waits: retries with a 1 ms base delay. */
const fast = { retry: { baseDelay: "1 millis", maxDelay: "4 millis" } } as const

const pathOf = (group: string, endpoint: string): string => {
  const found = Object.values(Api.Api.groups).find((candidate) => candidate.identifier === group)
  const path = Object.values(found?.endpoints ?? {}).find((candidate) => candidate.name === endpoint)?.path
  if (path === undefined) throw new Error(`no endpoint ${group}.${endpoint}`)
  return path
}

const queryOf = (request: HttpServerRequest.HttpServerRequest, name: string) =>
  new URL(request.url, "http://localhost").searchParams.get(name) ?? ""

describe("retries", () => {
  it.scopedLive("408/500/502/503/504 and an HTML 502 are retried, up to 5 attempts by default", () => {
    const seen: Array<Seen> = []
    const answers = [
      json({ success: false, error: "busy" }, 503),
      json({ success: false, error: "timeout" }, 408),
      raw("<html>bad gateway</html>", 502, "text/html"),
      json({ success: false, error: "down" }, 504),
      json({ success: false, error: "boom" }, 500),
      json(success("11"))
    ]
    return Effect.gen(function*() {
      const client = yield* makeClient(fast)
      const error = yield* Effect.flip(client.analytics.lifetimeFees({ tokenMint: F.tokenMint }))
      assertInstanceOf(error, FeeShareError.ServerError)
      assert.deepStrictEqual([error.status, error.message], [500, "boom"])
      assert.strictEqual(seen.length, 5)
      assert.strictEqual(yield* client.analytics.lifetimeFees({ tokenMint: F.tokenMint }), 11n)
      assert.strictEqual(seen.length, 6)
    }).pipe(Effect.provide(scripted(seen, (_request, { n }) => answers[n - 1] ?? json(success("11")))))
  })

  it.scopedLive("400/401/403/404/413 are never retried", () => {
    const statuses = [400, 401, 403, 404, 413]
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient(fast)
      for (const status of statuses) {
        const error = yield* Effect.flip(client.claims.positions({ wallet: F.wallet }))
        assert.isTrue(error._tag !== "InvalidRequest" && error.status === status)
      }
      assert.strictEqual(seen.length, statuses.length)
    }).pipe(
      Effect.provide(scripted(seen, (_request, { n }) => json({ success: false, error: "no" }, statuses[n - 1] ?? 400)))
    )
  })

  it.scopedLive("a 429 that does not say when the window resets is retried with backoff", () => {
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient(fast)
      assert.strictEqual(yield* client.analytics.lifetimeFees({ tokenMint: F.tokenMint }), 5n)
      assert.strictEqual(seen.length, 3)
    }).pipe(
      Effect.provide(
        scripted(
          seen,
          (_request, { n }) => n < 3 ? json({ success: false, error: "Too many requests" }, 429) : json(success("5"))
        )
      )
    )
  })

  it.scopedLive("POST operations are retried too (they only build transactions)", () => {
    const seen: Array<Seen> = []
    return Effect.gen(function*() {
      const client = yield* makeClient(fast)
      assert.deepStrictEqual(yield* client.feeShare.adminList({ wallet: F.wallet }), F.adminTokens)
      assert.deepStrictEqual(yield* client.feeShare.partnerClaim({ partnerWallet: F.wallet }), { transactions: [] })
      assert.deepStrictEqual(seen.map((entry) => entry.method), ["GET", "POST", "POST"])
    }).pipe(Effect.provide(scripted(seen, (_request, { n }) =>
      n === 1
        ? json(success({ tokenMints: F.adminTokens.tokenMints }))
        : n === 2
        ? json({ success: false, error: "busy" }, 503)
        : json(success({ transactions: [] })))))
  })

  it.scopedLive("faults: 30% of reads fail with 503 or a reset; every call succeeds within 5 attempts", () => {
    // a deterministic fault plan per call (keyed by its token mint): 0..4 failures first
    const calls = 40
    const mints = Array.from({ length: calls }, (_, i) => F.key(100 + i))
    let state = 0x2545f491
    const random = () => { // mulberry32
      state = (state + 0x6d2b79f5) | 0
      let t = Math.imul(state ^ (state >>> 15), 1 | state)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
    }
    const plans = [1, 1, 1, 2, 2, 4]
    const faults = new Map(mints.map((mint) => [mint, random() < 0.766 ? 0 : plans[Math.floor(random() * 6)] ?? 1]))
    const attempts = new Map<string, number>()
    const seen: Array<Seen> = []
    const server = scripted(seen, (request) => {
      const mint = queryOf(request, "tokenMint")
      const attempt = (attempts.get(mint) ?? 0) + 1
      attempts.set(mint, attempt)
      if (attempt > (faults.get(mint) ?? 0)) return json(success(String(attempt)))
      return attempt % 2 === 1 ? json({ success: false, error: "busy" }, 503) : reset(request)
    })
    return Effect.gen(function*() {
      const failed = [...faults.values()].reduce((a, b) => a + b, 0)
      const total = calls + failed
      // the plan itself: about 30% of all requests fail, no call needs more than 5 attempts
      assert.isAtLeast(failed / total, 0.25)
      assert.isAtMost(failed / total, 0.35)
      assert.isAtMost(Math.max(...faults.values()), 4)
      const client = yield* makeClient(fast)
      const results = yield* Effect.forEach(
        mints,
        (tokenMint) => client.analytics.lifetimeFees({ tokenMint }),
        { concurrency: 8 }
      )
      assert.deepStrictEqual(results, mints.map((mint) => BigInt((faults.get(mint) ?? 0) + 1)))
      assert.strictEqual(seen.length, total)
    }).pipe(Effect.provide(server))
  })

  it.scopedLive("faults: the agent-auth callback is attempted exactly once, with advice to start again", () => {
    const callback = pathOf("agentAuth", "callback")
    const seen: Array<Seen> = []
    let callbacks = 0
    const server = scripted(seen, (request) => {
      if (!request.url.startsWith(callback)) {
        return json(success({ message: PublicKey.base58.encode(new Uint8Array(32).fill(3)), nonce: "nonce-1" }))
      }
      callbacks++
      return callbacks === 1 ? json({ success: false, error: "busy" }, 503) : reset(request)
    })
    return Effect.gen(function*() {
      const client = yield* makeClient(fast)
      const signer = F.makeSigner().service
      const first = yield* Effect.flip(client.agentAuth.login({ signer, keyName: "ci" }))
      assertInstanceOf(first, FeeShareError.ServerError)
      assert.include(first.message, "start again from agentAuth.init")
      assert.strictEqual(callbacks, 1)
      const second = yield* Effect.flip(client.agentAuth.login({ signer, keyName: "ci" }))
      assertInstanceOf(second, FeeShareError.TransportError)
      assert.include(second.message, "agentAuth.callback is never retried")
      assert.strictEqual(callbacks, 2)
      assert.strictEqual(seen.length, 4)
    }).pipe(Effect.provide(server))
  })
})

describe("interruption", () => {
  it.scoped("a backoff wait is interrupted at once; nothing more is sent", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const arrivals = yield* Queue.unbounded<Seen>()
      const server = scripted(seen, (_request, entry) =>
        Queue.offer(arrivals, entry).pipe(Effect.zipRight(json({ success: false, error: "busy" }, 503))))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const fiber = yield* Effect.fork(client.analytics.lifetimeFees({ tokenMint: F.tokenMint }))
        yield* Queue.take(arrivals)
        const exit = yield* Fiber.interrupt(fiber)
        assert.isTrue(Exit.isInterrupted(exit))
        yield* TestClock.adjust("1 minute")
        assert.strictEqual(seen.length, 1)
      }).pipe(Effect.provide(server))
    }))

  it.scoped("a rate-limit wait is interrupted at once", () =>
    Effect.gen(function*() {
      const arrivals = yield* Queue.unbounded<Seen>()
      const server = scripted([], (_request, entry) =>
        Queue.offer(arrivals, entry).pipe(
          Effect.zipRight(json({ success: false, error: "slow down", limit: 1, remaining: 0, resetTime: 30 }, 429))
        ))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const fiber = yield* Effect.fork(client.identity.me())
        yield* Queue.take(arrivals)
        assert.isTrue(Exit.isInterrupted(yield* Fiber.interrupt(fiber)))
      }).pipe(Effect.provide(server))
    }))

  it.scoped("a request in flight is cancelled on the wire", () =>
    Effect.gen(function*() {
      const arrived = yield* Deferred.make<void>()
      const cancelled = yield* Deferred.make<void>()
      const server = scripted([], () =>
        Deferred.succeed(arrived, undefined).pipe(
          Effect.zipRight(Effect.never),
          Effect.onInterrupt(() => Deferred.succeed(cancelled, undefined)),
          Effect.zipRight(json(success("1")))
        ))
      yield* Effect.gen(function*() {
        const client = yield* makeClient()
        const fiber = yield* Effect.fork(client.analytics.pools())
        yield* Deferred.await(arrived)
        assert.isTrue(Exit.isInterrupted(yield* Fiber.interrupt(fiber)))
        yield* Deferred.await(cancelled)
      }).pipe(Effect.provide(server))
    }))
})

describe("RetryPolicy", () => {
  it("transient failures", () => {
    const fields = { message: "m", operation: "o" }
    assert.isTrue(RetryPolicy.isTransient(new FeeShareError.TransportError({ ...fields, status: 0 })))
    assert.isTrue(RetryPolicy.isTransient(new FeeShareError.Timeout({ ...fields, status: 408 })))
    assert.isTrue(RetryPolicy.isTransient(new FeeShareError.ServerError({ ...fields, status: 503 })))
    assert.isFalse(RetryPolicy.isTransient(new FeeShareError.ServerError({ ...fields, status: 501 })))
    assert.isTrue(RetryPolicy.isTransient(new FeeShareError.UnexpectedResponse({ ...fields, status: 502, body: "" })))
    assert.isFalse(RetryPolicy.isTransient(new FeeShareError.UnexpectedResponse({ ...fields, status: 200, body: "" })))
    assert.isFalse(RetryPolicy.isTransient(new FeeShareError.BadRequest({ ...fields, status: 413 })))
    assert.isFalse(
      RetryPolicy.isTransient(
        new FeeShareError.RateLimited({ ...fields, status: 429, limit: 1, remaining: 0, resetAt: 1 })
      )
    )
  })

  it.prop(
    "backoff doubles up to the cap and is jittered into its upper half",
    {
      attempt: FastCheck.integer({ min: 1, max: 40 }),
      random: FastCheck.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
    },
    ({ attempt, random }) => {
      const policy = RetryPolicy.make({ baseDelay: "100 millis", maxDelay: "5 seconds" })
      const ceiling = Math.min(5000, 100 * 2 ** (attempt - 1))
      const delay = RetryPolicy.delayMillis(policy, attempt, random)
      assert.isAtLeast(delay, Math.floor(ceiling / 2))
      assert.isAtMost(delay, ceiling)
    }
  )

  it.effect("the backoff schedule waits delayMillis of each attempt, with the fiber's Random", () =>
    Effect.gen(function*() {
      const policy = RetryPolicy.make({ baseDelay: "100 millis", maxDelay: "3 seconds" })
      const randoms: [number, ...Array<number>] = [0, 0.5, 0.99, 0.25, 0.75, 0.1, 0.9, 0.3]
      const delays = yield* Schedule.run(RetryPolicy.schedule(policy), 0, randoms).pipe(
        Effect.withRandom(Random.fixed(randoms))
      )
      assert.deepStrictEqual(
        Chunk.toReadonlyArray(delays).map(Duration.toMillis),
        randoms.map((random, index) => RetryPolicy.delayMillis(policy, index + 1, random))
      )
    }))
})
