import { assert, describe, it } from "@effect/vitest"
import { FastCheck as fc, Option } from "effect"
import { RateLimit } from "../src/index.js"

const randomCase = (name: string): fc.Arbitrary<string> =>
  fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => Array.from(name, (c, i) => (upper[i] ? c.toUpperCase() : c)).join(""))

const count = fc.integer({ min: 0, max: 999_999_999_999_999 })

describe("RateLimit.fromHeaders", () => {
  it.prop("reads the three headers whatever their case", [
    count,
    count,
    count,
    randomCase(RateLimit.headerNames.limit),
    randomCase(RateLimit.headerNames.remaining),
    randomCase(RateLimit.headerNames.reset)
  ], ([limit, remaining, resetAt, l, r, s]) => {
    const info = RateLimit.fromHeaders({
      [l]: String(limit),
      [r]: String(remaining),
      [s]: String(resetAt),
      "content-type": "application/json"
    })
    assert.deepStrictEqual(
      Option.map(info, (i) => [i.limit, i.remaining, i.resetAt, i.resetAtMillis]),
      Option.some([limit, remaining, resetAt, resetAt * 1000])
    )
  })

  it.prop("toHeaders ∘ fromHeaders is the identity", [count, count, count], ([limit, remaining, resetAt]) => {
    const info = new RateLimit.RateLimitInfo({ limit, remaining, resetAt })
    assert.deepStrictEqual(RateLimit.fromHeaders(RateLimit.toHeaders(info)), Option.some(info))
  })

  it.prop("a missing or garbled header gives None", [
    count,
    count,
    count,
    fc.constantFrom("limit" as const, "remaining" as const, "reset" as const),
    fc.oneof(
      fc.constant(undefined),
      fc.constantFrom("", " ", "-1", "1.5", "1e3", "0x10", "abc", "+5", "1 000", "Infinity", "NaN", "9999999999999999"),
      fc.array(fc.nat().map(String), { minLength: 0, maxLength: 3 })
    ),
    fc.boolean()
  ], ([limit, remaining, resetAt, which, bad, omit]) => {
    const headers: Record<string, string | ReadonlyArray<string> | undefined> = {
      [RateLimit.headerNames.limit]: String(limit),
      [RateLimit.headerNames.remaining]: String(remaining),
      [RateLimit.headerNames.reset]: String(resetAt)
    }
    const name = RateLimit.headerNames[which]
    if (omit) delete headers[name]
    else headers[name] = bad
    assert.isTrue(Option.isNone(RateLimit.fromHeaders(headers)))
  })

  it.prop("arbitrary header records never throw; any result holds non-negative integers", [
    fc.dictionary(
      fc.oneof(
        fc.string(),
        randomCase("x-ratelimit-limit"),
        randomCase("x-ratelimit-remaining"),
        randomCase("x-ratelimit-reset"),
        fc.constant("__proto__")
      ),
      fc.oneof(fc.string(), fc.nat().map(String), fc.array(fc.string(), { maxLength: 3 }), fc.constant(undefined))
    )
  ], ([headers]) => {
    const info = RateLimit.fromHeaders(headers)
    if (Option.isSome(info)) {
      for (const n of [info.value.limit, info.value.remaining, info.value.resetAt]) {
        assert.isTrue(Number.isSafeInteger(n) && n >= 0)
      }
    }
  })

  it("an empty record gives None", () => {
    assert.isTrue(Option.isNone(RateLimit.fromHeaders({})))
  })
})

describe("RateLimit.retryAfterMillis", () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0)

  it.prop("delay seconds, with surrounding blanks", [fc.integer({ min: 0, max: 10 ** 9 })], ([seconds]) => {
    assert.deepStrictEqual(RateLimit.retryAfterMillis(` ${seconds} `, now), Option.some(seconds * 1000))
  })

  it.prop(
    "an HTTP date: the time left until it, 0 once passed",
    [fc.integer({ min: -1_000_000, max: 10_000_000 })],
    ([offset]) => {
      const at = new Date(now + offset * 1000).toUTCString()
      assert.deepStrictEqual(RateLimit.retryAfterMillis(at, now), Option.some(Math.max(0, offset * 1000)))
    }
  )

  it.prop("anything else is None, never a throw", [
    fc.oneof(fc.string(), fc.constantFrom("-1", "1.5", "1e3", "", "soon", "Mon, 99 Foo 2026", "9".repeat(100)))
  ], ([text]) => {
    const result = RateLimit.retryAfterMillis(text, now)
    if (/^\s*[0-9]{1,15}\s*$/.test(text)) assert.isTrue(Option.isSome(result))
    else if (!/^\s*[A-Za-z]{3},/.test(text)) assert.isTrue(Option.isNone(result))
    else assert.isTrue(Option.isNone(result) || (Option.getOrThrow(result) >= 0))
  })
})
