/**
 * The closed set of failures of every operation, and `InvalidRequest` for rule breaks
 * caught before a request is sent.
 *
 * @since 0.1.0
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitInfo } from "./RateLimit.js"

const fields = {
  /** HTTP status of the response; 0 when no response arrived. */
  status: Schema.Number,
  message: Schema.String,
  /** The operation that failed, e.g. `claims.createPlan`. */
  operation: Schema.String,
  /** The last rate-limit headers seen with this response, if any. */
  rateLimit: Schema.optionalWith(RateLimitInfo, { exact: true })
}

/**
 * 400 (and other 4xx statuses without a class of their own): invalid parameters, nothing
 * to claim, a bad signature or nonce.
 *
 * @since 0.1.0
 * @category errors
 */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", fields) {}

/**
 * 401: the API key is missing or invalid.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", fields) {}

/**
 * 403: the API key lacks the permission.
 *
 * @since 0.1.0
 * @category errors
 */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", fields) {}

/**
 * 404: e.g. the user of the key is gone, or an unknown route.
 *
 * @since 0.1.0
 * @category errors
 */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", fields) {}

/**
 * 429: the rate limit is spent. `resetAt` is a Unix time in seconds.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  ...fields,
  limit: Schema.Number,
  remaining: Schema.Number,
  resetAt: Schema.Number
}) {}

/**
 * 5xx: the service failed.
 *
 * @since 0.1.0
 * @category errors
 */
export class ServerError extends Schema.TaggedError<ServerError>()("ServerError", fields) {}

/**
 * A response that is not a well-formed envelope (HTML, truncated JSON, a success without
 * `response`, a payload that does not match its schema). `body` holds the first 512
 * characters of the raw text.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnexpectedResponse extends Schema.TaggedError<UnexpectedResponse>()("UnexpectedResponse", {
  ...fields,
  body: Schema.String
}) {}

/**
 * The request did not complete: connection refused or reset, DNS failure.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", fields) {}

/**
 * No response within the per-request time limit (or a 408 from the server).
 *
 * @since 0.1.0
 * @category errors
 */
export class Timeout extends Schema.TaggedError<Timeout>()("Timeout", fields) {}

/**
 * Every failure an operation can report once a request was attempted.
 *
 * @since 0.1.0
 * @category errors
 */
export type ApiFailure =
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | RateLimited
  | ServerError
  | UnexpectedResponse
  | TransportError
  | Timeout

/**
 * @since 0.1.0
 * @category schemas
 */
export const ApiFailure = Schema.Union(
  BadRequest,
  Unauthorized,
  Forbidden,
  NotFound,
  RateLimited,
  ServerError,
  UnexpectedResponse,
  TransportError,
  Timeout
)

/**
 * A request input that breaks a rule; nothing was sent. `field` is the path of the
 * offending value (`claimersArray[2]`, or `""` for the whole input).
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  operation: Schema.String,
  field: Schema.String,
  rule: Schema.String,
  message: Schema.String
}) {}

/**
 * The client-side rate budget could not be asked in time (its shared store, e.g. Redis, is
 * down, unreachable or slower than the admission deadline) and the budget is configured to
 * fail closed; nothing was sent. `store` names the store (never its password).
 *
 * @since 0.1.0
 * @category errors
 */
export class BudgetUnavailable extends Schema.TaggedError<BudgetUnavailable>()("BudgetUnavailable", {
  ...fields,
  /** Always 0: no request was sent. */
  status: Schema.Literal(0),
  /** The store that did not answer, e.g. `redis://cache:6379/0` (credentials removed). */
  store: Schema.String
}) {}

/**
 * Agent login: the wallet has MFA enabled and no code was given. Call `agentAuth.callback`
 * with `{ authCode, mfaCode, keyName }`, or `login` again with an `mfaCode`.
 *
 * @since 0.1.0
 * @category errors
 */
export class MfaRequired extends Schema.TaggedError<MfaRequired>()("MfaRequired", {
  /** Single-use code that pairs the MFA answer with the verified signature. */
  authCode: Schema.String,
  /** The MFA method the service asks for, e.g. `totp`. */
  method: Schema.String,
  message: Schema.String
}) {}

/**
 * What any operation can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type FeeShareError = ApiFailure | InvalidRequest | BudgetUnavailable

/**
 * Maps a decoded failure envelope to its error class by HTTP status.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromStatus = (input: {
  readonly status: number
  readonly message: string
  readonly operation: string
  readonly rateLimit?: RateLimitInfo | undefined
  readonly body: string
  readonly limits?: { readonly limit: number; readonly remaining: number; readonly resetAt: number } | undefined
}): ApiFailure => {
  const base = {
    status: input.status,
    message: input.message,
    operation: input.operation,
    ...(input.rateLimit === undefined ? {} : { rateLimit: input.rateLimit })
  }
  const { status } = input
  if (status === 401) return new Unauthorized(base)
  if (status === 403) return new Forbidden(base)
  if (status === 404) return new NotFound(base)
  if (status === 408) return new Timeout(base)
  if (status === 429) {
    const limits = input.limits ?? {
      limit: input.rateLimit?.limit ?? 0,
      remaining: input.rateLimit?.remaining ?? 0,
      resetAt: input.rateLimit?.resetAt ?? 0
    }
    return new RateLimited({ ...base, ...limits })
  }
  if (status >= 500) return new ServerError(base)
  if (status >= 400) return new BadRequest(base)
  return new UnexpectedResponse({ ...base, body: input.body.slice(0, 512) })
}

// ---------------------------------------------------------------------------
// wire forms, used by the HttpApi definition (server side and OpenAPI)
// ---------------------------------------------------------------------------

/**
 * `{ success: false, error }`; some operations (the EVM chain's) put the message in
 * `response` instead.
 *
 * @since 0.1.0
 * @category wire
 */
export const FailureBody = Schema.Struct({
  success: Schema.Literal(false),
  error: Schema.optionalWith(Schema.String, { exact: true }),
  response: Schema.optionalWith(Schema.String, { exact: true })
}).annotations({ identifier: "FailureBody" })

type MessageError = BadRequest | Unauthorized | Forbidden | NotFound | ServerError

const wire = <E extends MessageError>(
  self: Schema.Schema<E, Schema.Struct.Encoded<typeof fields> & { readonly _tag: E["_tag"] }> & { readonly _tag: E["_tag"] },
  status: number
) =>
  Schema.transform(FailureBody, self, {
    strict: true,
    decode: (body) => ({ _tag: self._tag, status, message: body.error ?? body.response ?? "", operation: "" }),
    encode: (error) => ({ success: false as const, error: error.message })
  }).annotations(HttpApiSchema.annotations({ status }))

/** @since 0.1.0 @category wire */
export const BadRequestWire = wire(BadRequest, 400)
/** @since 0.1.0 @category wire */
export const UnauthorizedWire = wire(Unauthorized, 401)
/** @since 0.1.0 @category wire */
export const ForbiddenWire = wire(Forbidden, 403)
/** @since 0.1.0 @category wire */
export const NotFoundWire = wire(NotFound, 404)
/** @since 0.1.0 @category wire */
export const ServerErrorWire = wire(ServerError, 500)

/**
 * @since 0.1.0
 * @category wire
 */
export const RateLimitedWire = Schema.transform(
  Schema.Struct({
    success: Schema.Literal(false),
    error: Schema.String,
    limit: Schema.Number,
    remaining: Schema.Number,
    resetTime: Schema.Number
  }),
  RateLimited,
  {
    strict: true,
    decode: (body) => ({
      _tag: "RateLimited" as const,
      status: 429,
      message: body.error,
      operation: "",
      limit: body.limit,
      remaining: body.remaining,
      resetAt: body.resetTime
    }),
    encode: (error) => ({
      success: false as const,
      error: error.message,
      limit: error.limit,
      remaining: error.remaining,
      resetTime: error.resetAt
    })
  }
).annotations(HttpApiSchema.annotations({ status: 429 }))
