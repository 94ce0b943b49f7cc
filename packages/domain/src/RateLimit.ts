/**
 * Rate-limit information: the `X-RateLimit-*` headers and the 429 body.
 *
 * @since 0.1.0
 */
import { Option, Schema } from "effect"

/**
 * What the service said about the caller's budget. `resetAt` is a Unix time in seconds.
 *
 * @since 0.1.0
 * @category models
 */
export class RateLimitInfo extends Schema.Class<RateLimitInfo>("RateLimitInfo")({
  limit: Schema.NonNegativeInt,
  remaining: Schema.NonNegativeInt,
  resetAt: Schema.NonNegativeInt
}) {
  /** The reset instant in epoch milliseconds. */
  get resetAtMillis(): number {
    return this.resetAt * 1000
  }
}

/**
 * Header names, lower case.
 *
 * @since 0.1.0
 * @category constants
 */
export const headerNames = {
  limit: "x-ratelimit-limit",
  remaining: "x-ratelimit-remaining",
  reset: "x-ratelimit-reset"
} as const

const digits = /^[0-9]{1,15}$/

const readInt = (value: string | ReadonlyArray<string> | undefined): number | undefined => {
  const text = typeof value === "string" ? value.trim() : undefined
  return text !== undefined && digits.test(text) ? Number(text) : undefined
}

/**
 * Reads the `X-RateLimit-Limit/Remaining/Reset` headers, whatever their case. Missing or
 * garbled values give `None`; this never throws.
 *
 * @since 0.1.0
 * @category parsing
 */
export const fromHeaders = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): Option.Option<RateLimitInfo> => {
  const found: Record<string, string | ReadonlyArray<string> | undefined> = {}
  for (const key of Object.keys(headers)) found[key.toLowerCase()] = headers[key]
  const limit = readInt(found[headerNames.limit])
  const remaining = readInt(found[headerNames.remaining])
  const resetAt = readInt(found[headerNames.reset])
  return limit === undefined || remaining === undefined || resetAt === undefined
    ? Option.none()
    : Option.some(new RateLimitInfo({ limit, remaining, resetAt }, { disableValidation: true }))
}

/**
 * How long a `Retry-After` header asks to wait, in milliseconds from `nowMillis`: delay
 * seconds (`120`) or an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`). A date in the past is 0;
 * anything else (absent, negative, garbled, absurdly long) is `None`. Never throws.
 *
 * @since 0.1.0
 * @category parsing
 */
export const retryAfterMillis = (
  value: string | ReadonlyArray<string> | undefined,
  nowMillis: number
): Option.Option<number> => {
  const text = typeof value === "string" ? value.trim() : undefined
  if (text === undefined || text.length === 0 || text.length > 64) return Option.none()
  if (digits.test(text)) return Option.some(Number(text) * 1000)
  // an HTTP date names the day of the week first; bare numbers with signs or points are not dates
  if (!/^[A-Za-z]{3},/.test(text)) return Option.none()
  const at = Date.parse(text)
  return Number.isFinite(at) ? Option.some(Math.max(0, at - nowMillis)) : Option.none()
}

/**
 * The headers that carry `info`.
 *
 * @since 0.1.0
 * @category encoding
 */
export const toHeaders = (info: RateLimitInfo): Record<string, string> => ({
  [headerNames.limit]: String(info.limit),
  [headerNames.remaining]: String(info.remaining),
  [headerNames.reset]: String(info.resetAt)
})

/**
 * The 429 body: `{ success: false, error, limit, remaining, resetTime }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RateLimitedBody = Schema.Struct({
  success: Schema.Literal(false),
  error: Schema.String,
  limit: Schema.NonNegativeInt,
  remaining: Schema.NonNegativeInt,
  resetTime: Schema.NonNegativeInt
}).annotations({ identifier: "RateLimitedBody" })
