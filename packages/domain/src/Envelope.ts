/**
 * The response envelope: `{ success: true, response }` or `{ success: false, error }`
 * (some operations put the failure message in `response`), decoded by `success` whatever
 * the HTTP status.
 *
 * @since 0.1.0
 */
import { Either, ParseResult, Schema } from "effect"
import { type ApiFailure, fromStatus, UnexpectedResponse } from "./FeeShareError.js"
import * as FastDecode from "./internal/fastDecode.js"
import type { RateLimitInfo } from "./RateLimit.js"

/**
 * `{ success: true, response: A }` on the wire, plain `A` in the program.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Success = <A, I, R>(payload: Schema.Schema<A, I, R>) =>
  Schema.transform(
    Schema.Struct({ success: Schema.Literal(true), response: payload }),
    Schema.typeSchema(payload),
    {
      strict: true,
      decode: (envelope) => envelope.response,
      encode: (response) => ({ success: true as const, response })
    }
  ).annotations({ [FastDecode.SkipTypeCheck]: true })

/**
 * How many characters of a raw body an `UnexpectedResponse` keeps.
 *
 * @since 0.1.0
 * @category constants
 */
export const bodyPreviewLength = 512

/**
 * The context a response is decoded in.
 *
 * @since 0.1.0
 * @category models
 */
export interface ResponseContext {
  readonly status: number
  readonly operation: string
  readonly rateLimit?: RateLimitInfo | undefined
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const unexpected = (context: ResponseContext, text: string, message: string) =>
  new UnexpectedResponse({
    status: context.status,
    message,
    operation: context.operation,
    body: text.slice(0, bodyPreviewLength),
    ...(context.rateLimit === undefined ? {} : { rateLimit: context.rateLimit })
  })

const parseJson = (text: string): Either.Either<unknown, undefined> => {
  try {
    return Either.right(JSON.parse(text))
  } catch {
    return Either.left(undefined)
  }
}

const nonNegativeInt = (u: unknown): number | undefined =>
  typeof u === "number" && Number.isInteger(u) && u >= 0 ? u : undefined

/**
 * Classifies an already-parsed body: the decoded value when the body is not a failure
 * envelope and matches `schema` (the whole body: the success envelope, or a bare payload
 * such as the ping answer), the typed failure otherwise. Never throws.
 *
 * Valid bodies are decoded by a decoder compiled from the schema's AST: it accepts what
 * Effect's parser accepts and yields the same value, but does not validate a `Success`
 * payload a second time against its type. Anything it refuses goes through Effect's
 * parser, which gives the verdict and the message.
 *
 * @since 0.1.0
 * @category decoding
 */
export const classify = <A, I>(
  schema: Schema.Schema<A, I, never>,
  body: unknown,
  context: ResponseContext,
  text: string
): Either.Either<A, ApiFailure> => {
  if (isRecord(body) && body.success === false) return Either.left(failure(body, context, text))
  if (isRecord(body) && body.success === true && !("response" in body)) {
    return Either.left(unexpected(context, text, "success envelope without `response`"))
  }
  const fast = FastDecode.compile(schema)
  if (fast !== undefined) {
    const decoded = fast(body)
    if (decoded !== FastDecode.FAIL) return Either.right(decoded)
  }
  return Either.mapLeft(Schema.decodeUnknownEither(schema, { errors: "first" })(body), (error) =>
    unexpected(
      context,
      text,
      isRecord(body) && typeof body.success === "boolean"
        ? `response does not match the ${context.operation} schema: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
        : `response is not an envelope (status ${context.status})`
    ))
}

const failure = (body: Record<string, unknown>, context: ResponseContext, text: string): ApiFailure => {
  const message = typeof body.error === "string"
    ? body.error
    : typeof body.response === "string"
    ? body.response
    : undefined
  if (message === undefined) {
    return unexpected(context, text, `failure envelope without a message (status ${context.status})`)
  }
  const limit = nonNegativeInt(body.limit)
  const remaining = nonNegativeInt(body.remaining)
  const resetAt = nonNegativeInt(body.resetTime)
  return fromStatus({
    status: context.status,
    message,
    operation: context.operation,
    rateLimit: context.rateLimit,
    body: text,
    limits: limit !== undefined && remaining !== undefined && resetAt !== undefined
      ? { limit, remaining, resetAt }
      : undefined
  })
}

/**
 * Decodes a raw response text with the schema of the whole body (see `classify`).
 * Anything else (HTML, truncated JSON, a success without `response`, a payload that does
 * not match) is `UnexpectedResponse` with the status and the first 512 characters of the
 * text. Never throws.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = <A, I>(
  schema: Schema.Schema<A, I, never>,
  text: string,
  context: ResponseContext
): Either.Either<A, ApiFailure> => {
  const json = parseJson(text)
  if (Either.isLeft(json)) {
    return Either.left(unexpected(context, text, `response is not JSON (status ${context.status})`))
  }
  return classify(schema, json.right, context, text)
}
