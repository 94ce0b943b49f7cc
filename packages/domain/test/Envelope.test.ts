import { assert, describe, it } from "@effect/vitest"
import { Either, FastCheck as fc, Option, Schema } from "effect"
import { Analytics, Api, Claims, Envelope, FeeShareError, RateLimit } from "../src/index.js"
import { endpoint } from "./endpoints.js"

const positionsSchema = endpoint("claims", "positions").successSchema
const context = (status: number) => ({ status, operation: "claims.positions" })

const rateLimit = fc.record({ limit: fc.nat(10_000), remaining: fc.nat(10_000), resetAt: fc.nat(2_000_000_000) })
  .map((info) => new RateLimit.RateLimitInfo(info))

/** Every endpoint's success schema, named `group.endpoint`. */
const everySuccessSchema: ReadonlyArray<readonly [string, Schema.Schema.AnyNoContext]> = Object.values(Api.Api.groups)
  .flatMap((group) =>
    Object.values(group.endpoints).map((e) => [Api.operationName(group.identifier, e.name), e.successSchema] as const)
  )

const failureTags = new Set([
  "BadRequest",
  "Unauthorized",
  "Forbidden",
  "NotFound",
  "RateLimited",
  "ServerError",
  "UnexpectedResponse",
  "TransportError",
  "Timeout"
])

const assertTyped = (result: Either.Either<unknown, FeeShareError.ApiFailure>, text: string, status: number) => {
  if (Either.isRight(result)) return
  assert.isTrue(failureTags.has(result.left._tag), result.left._tag)
  assert.strictEqual(result.left.status, status)
  if (result.left._tag === "UnexpectedResponse") assert.strictEqual(result.left.body, text.slice(0, 512))
}

describe("Envelope success", () => {
  it.prop(
    "Success(payload): encode ∘ decode and decode ∘ encode are identities",
    [Claims.ClaimablePositions],
    ([positions]) => {
      const wire = Schema.encodeSync(positionsSchema)(positions)
      assert.deepStrictEqual(wire, { success: true, response: Schema.encodeSync(Claims.ClaimablePositions)(positions) })
      assert.deepStrictEqual(Schema.decodeUnknownSync(positionsSchema)(wire), positions)
      assert.deepStrictEqual(Schema.encodeSync(positionsSchema)(Schema.decodeUnknownSync(positionsSchema)(wire)), wire)
    }
  )

  it.prop("{success:true,response} decodes to the payload whatever the status", [
    Analytics.Pools,
    fc.integer({ min: 100, max: 599 })
  ], ([pools, status]) => {
    const schema = endpoint("analytics", "pools").successSchema
    const text = JSON.stringify(Schema.encodeSync(schema)(pools))
    assert.deepStrictEqual(Envelope.decode(schema, text, context(status)), Either.right(pools))
  })

  it("the ping answer is decoded bare", () => {
    const schema = endpoint("system", "ping").successSchema
    assert.deepStrictEqual(
      Envelope.decode(schema, `{"message":"pong"}`, context(200)),
      Either.right({ message: "pong" })
    )
  })
})

describe("Envelope failures", () => {
  const expectedTag = (status: number): string =>
    status === 401 ?
      "Unauthorized"
      : status === 403 ?
      "Forbidden"
      : status === 404 ?
      "NotFound"
      : status === 408 ?
      "Timeout"
      : status === 429 ?
      "RateLimited"
      : status >= 500 ?
      "ServerError"
      : status >= 400 ?
      "BadRequest"
      : "UnexpectedResponse"

  const status = fc.oneof(
    fc.constantFrom(200, 201, 400, 401, 403, 404, 408, 413, 422, 429, 500, 502, 503),
    fc.integer({ min: 200, max: 599 })
  )

  it.prop("{success:false,error} and the EVM shape {success:false,response} map to the class of the status", [
    status,
    fc.string(),
    fc.boolean(),
    fc.option(rateLimit, { nil: undefined })
  ], ([status, message, evmShape, info]) => {
    const text = JSON.stringify(evmShape ? { success: false, response: message } : { success: false, error: message })
    const result = Envelope.decode(positionsSchema, text, { ...context(status), rateLimit: info })
    if (Either.isRight(result)) return assert.fail("a failure envelope decoded as a success")
    const error = result.left
    assert.strictEqual(error._tag, expectedTag(status))
    assert.strictEqual(error.status, status)
    assert.strictEqual(error.operation, "claims.positions")
    assert.deepStrictEqual(error.rateLimit, info)
    if (error._tag === "UnexpectedResponse") assert.strictEqual(error.body, text.slice(0, 512))
    else assert.strictEqual(error.message, message)
    if (error._tag === "RateLimited") {
      assert.deepStrictEqual(
        { limit: error.limit, remaining: error.remaining, resetAt: error.resetAt },
        { limit: info?.limit ?? 0, remaining: info?.remaining ?? 0, resetAt: info?.resetAt ?? 0 }
      )
    }
  })

  it.prop("a 429 body carries limit, remaining and resetAt (they win over the headers)", [
    fc.string(),
    fc.nat(10_000),
    fc.nat(10_000),
    fc.nat(2_000_000_000),
    fc.option(rateLimit, { nil: undefined })
  ], ([message, limit, remaining, resetTime, info]) => {
    const text = JSON.stringify({ success: false, error: message, limit, remaining, resetTime })
    const result = Envelope.decode(positionsSchema, text, { ...context(429), rateLimit: info })
    assert.isTrue(Either.isLeft(result))
    if (Either.isLeft(result) && result.left._tag === "RateLimited") {
      assert.deepStrictEqual(
        {
          message: result.left.message,
          limit: result.left.limit,
          remaining: result.left.remaining,
          resetAt: result.left.resetAt
        },
        { message, limit, remaining, resetAt: resetTime }
      )
    } else assert.fail("not RateLimited")
  })

  it("the 429 wire form decodes to RateLimited and back", () => {
    const body = {
      success: false as const,
      error: "Too many requests",
      limit: 5000,
      remaining: 0,
      resetTime: 1_700_000_000
    }
    const error = Schema.decodeUnknownSync(FeeShareError.RateLimitedWire)(body)
    assert.deepStrictEqual([error._tag, error.status, error.limit, error.remaining, error.resetAt], [
      "RateLimited",
      429,
      5000,
      0,
      1_700_000_000
    ])
    assert.deepStrictEqual(Schema.encodeSync(FeeShareError.RateLimitedWire)(error), body)
    assert.deepStrictEqual(Schema.decodeUnknownSync(RateLimit.RateLimitedBody)(body), body)
  })

  it.prop(
    "failure wire forms read the message from error or response",
    [fc.string(), fc.boolean()],
    ([message, evm]) => {
      const body = evm ? { success: false, response: message } : { success: false, error: message }
      const decoded = [
        Schema.decodeUnknownSync(FeeShareError.BadRequestWire)(body),
        Schema.decodeUnknownSync(FeeShareError.UnauthorizedWire)(body),
        Schema.decodeUnknownSync(FeeShareError.ForbiddenWire)(body),
        Schema.decodeUnknownSync(FeeShareError.NotFoundWire)(body),
        Schema.decodeUnknownSync(FeeShareError.ServerErrorWire)(body)
      ]
      assert.deepStrictEqual(decoded.map((e) => [e._tag, e.status, e.message]), [
        ["BadRequest", 400, message],
        ["Unauthorized", 401, message],
        ["Forbidden", 403, message],
        ["NotFound", 404, message],
        ["ServerError", 500, message]
      ])
    }
  )
})

describe("Envelope unexpected responses", () => {
  const assertUnexpected = (text: string, status: number) => {
    const result = Envelope.decode(positionsSchema, text, context(status))
    if (Either.isRight(result)) return assert.fail(`decoded: ${text.slice(0, 80)}`)
    assert.strictEqual(result.left._tag, "UnexpectedResponse")
    assert.strictEqual(result.left.status, status)
    if (result.left._tag === "UnexpectedResponse") {
      assert.strictEqual(result.left.body, text.slice(0, Envelope.bodyPreviewLength))
    }
  }

  it.prop("HTML is UnexpectedResponse with the status and the first 512 characters", [
    fc.string({ maxLength: 2000 }),
    fc.integer({ min: 200, max: 599 })
  ], ([inner, status]) => {
    assertUnexpected(`<!DOCTYPE html><html><body>${inner}</body></html>`, status)
  })

  it.prop("truncated JSON is UnexpectedResponse", [
    fc.array(
      fc.record({
        isCustomFeeVault: fc.boolean(),
        baseMint: fc.string(),
        isMigrated: fc.boolean(),
        totalClaimableLamportsUserShare: fc.nat()
      }),
      { minLength: 1, maxLength: 30 }
    ),
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    fc.integer({ min: 200, max: 599 })
  ], ([positions, cut, status]) => {
    const text = JSON.stringify({ success: true, response: positions })
    assertUnexpected(text.slice(0, Math.floor(cut * text.length)), status)
  })

  it.prop("a success without response, or a payload that does not match, is UnexpectedResponse", [
    fc.integer({ min: 200, max: 599 }),
    fc.constantFrom(
      { success: true },
      { success: true, data: [] },
      { success: true, response: {} },
      { success: true, response: [{ baseMint: 1 }] },
      {
        success: true,
        response: [{ isCustomFeeVault: true, baseMint: "m", isMigrated: false, totalClaimableLamportsUserShare: "1" }]
      },
      { success: false },
      { success: false, error: 42 },
      { success: "true", response: [] },
      { response: [] },
      [],
      null,
      "ok",
      0
    )
  ], ([status, body]) => {
    assertUnexpected(JSON.stringify(body), status)
  })

  it.prop(
    "the preview keeps at most 512 characters of a long body",
    [fc.string({ minLength: 513, maxLength: 3000 })],
    ([garbage]) => {
      const text = `<html>${garbage}`
      const result = Envelope.decode(positionsSchema, text, context(502))
      assert.isTrue(
        Either.isLeft(result) && result.left._tag === "UnexpectedResponse" && result.left.body.length === 512
      )
    }
  )
})

describe("hostile input", () => {
  it("covers all 28 success schemas", () => assert.strictEqual(everySuccessSchema.length, 28))

  it.prop("arbitrary strings never throw through any endpoint's schema", [
    fc.oneof(fc.string(), fc.fullUnicodeString(), fc.json(), fc.stringMatching(/^[\s{}[\]",:0-9a-z-]*$/)),
    fc.integer({ min: 0, max: 599 })
  ], ([text, status]) => {
    for (const [operation, schema] of everySuccessSchema) {
      assertTyped(Envelope.decode(schema, text, { status, operation }), text, status)
    }
  })

  it.prop("arbitrary JSON values, bare or as a response, never throw", [
    fc.jsonValue(),
    fc.boolean(),
    fc.integer({ min: 0, max: 599 })
  ], ([value, wrap, status]) => {
    const text = JSON.stringify(wrap ? { success: true, response: value } : value)
    for (const [operation, schema] of everySuccessSchema) {
      assertTyped(Envelope.decode(schema, text, { status, operation }), text, status)
    }
  })

  it.prop("arbitrary values (not only JSON) never throw through classify", [
    fc.anything(),
    fc.integer({ min: 0, max: 599 })
  ], ([value, status]) => {
    for (const [operation, schema] of everySuccessSchema) {
      assertTyped(Envelope.classify(schema, value, { status, operation }, "raw"), "raw", status)
    }
  })
})

describe("large responses", () => {
  const position = (i: number) => ({
    isCustomFeeVault: i % 3 === 0,
    baseMint: `mint${i}`,
    isMigrated: i % 2 === 0,
    totalClaimableLamportsUserShare: i * 1000,
    ...(i % 2 === 0
      ? {
        dammPoolAddress: `pool${i}`,
        dammPositionInfo: {
          position: `p${i}`,
          pool: `pool${i}`,
          positionNftAccount: `n${i}`,
          tokenAMint: `a${i}`,
          tokenBMint: "b",
          tokenAVault: `va${i}`,
          tokenBVault: `vb${i}`
        },
        dammPoolClaimableAmount: i / 7
      }
      : {
        virtualPool: null,
        virtualPoolClaimableAmount: i,
        customFeeVaultClaimerSide: i % 4 === 1 ? "A" as const : "B" as const
      })
  })

  it("a 10,000-position envelope decodes, in order and intact", () => {
    const positions = Array.from({ length: 10_000 }, (_, i) => position(i))
    const text = JSON.stringify({ success: true, response: positions })
    const decoded = Envelope.decode(positionsSchema, text, context(200))
    if (Either.isLeft(decoded)) return assert.fail(decoded.left.message)
    assert.strictEqual(decoded.right.length, 10_000)
    assert.deepStrictEqual(decoded.right, positions)
    assert.deepStrictEqual(Schema.encodeSync(positionsSchema)(decoded.right), JSON.parse(text))
  })

  it("a broken position deep in a 10,000-position envelope is caught", () => {
    const positions: Array<unknown> = Array.from({ length: 10_000 }, (_, i) => position(i))
    positions[9_876] = { ...position(9_876), isMigrated: "yes" }
    const result = Envelope.decode(
      positionsSchema,
      JSON.stringify({ success: true, response: positions }),
      context(200)
    )
    assert.isTrue(
      Either.isLeft(result) && result.left._tag === "UnexpectedResponse" && result.left.message.includes("9876")
    )
  })
})

describe("rate-limit snapshot on failures", () => {
  it.prop("the snapshot of the context is kept as is", [rateLimit], ([info]) => {
    const result = Envelope.decode(positionsSchema, "<html>", {
      status: 502,
      operation: "claims.positions",
      rateLimit: info
    })
    assert.deepStrictEqual(Either.getLeft(result).pipe(Option.map((e) => e.rateLimit)), Option.some(info))
  })
})
