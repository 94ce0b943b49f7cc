/**
 * Claim events of a token: who claimed how much and when, newest first, in pages (offset
 * mode) or for a window of time (time mode).
 *
 * @since 0.1.0
 */
import { ParseResult, Schema } from "effect"
import { optional } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { RawAmount } from "./RawAmount.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const limits = { maxLimit: 100, defaultLimit: 100 } as const

/**
 * The rules of the query, each as the message of the field it names.
 *
 * @since 0.1.0
 * @category constants
 */
export const rules = {
  limit: `must be an integer from 1 to ${limits.maxLimit}`,
  offset: "must be an integer of at least 0",
  seconds: "must be a whole number of unix seconds",
  requiredInTime: "is required in time mode",
  order: "must be at least from",
  offsetOnly: "applies to offset mode only (mode is time)",
  timeOnly: "applies to time mode only (set mode=time)"
} as const

/** A query-string integer: decimal digits only (no sign, exponent, fraction or spaces). */
const IntegerText = (rule: string, min: number, max: number) =>
  Schema.transformOrFail(Schema.String, Schema.Number, {
    strict: true,
    decode: (text, _, ast) => {
      const value = Number(text)
      return /^(0|[1-9][0-9]{0,15})$/.test(text) && Number.isSafeInteger(value) && value >= min && value <= max
        ? ParseResult.succeed(value)
        : ParseResult.fail(new ParseResult.Type(ast, text, rule))
    },
    encode: (value) => ParseResult.succeed(String(value))
  }).pipe(
    Schema.filter((value) => Number.isSafeInteger(value) && value >= min && value <= max, { message: () => rule })
  )

/**
 * `?tokenMint=…` and, in offset mode (the default), `limit` (1–100, default 100) and `offset`
 * (≥ 0, default 0); in time mode (`mode=time`), `from` and `to` (unix seconds, inclusive,
 * both required, `to ≥ from`). A field of the other mode is refused, naming it.
 *
 * @since 0.1.0
 * @category requests
 */
export const ClaimEventsQuery = Schema.Struct({
  tokenMint: PublicKey,
  mode: optional(Schema.Literal("offset", "time")),
  limit: optional(IntegerText(rules.limit, 1, limits.maxLimit)),
  offset: optional(IntegerText(rules.offset, 0, Number.MAX_SAFE_INTEGER)),
  from: optional(IntegerText(rules.seconds, 0, Number.MAX_SAFE_INTEGER)),
  to: optional(IntegerText(rules.seconds, 0, Number.MAX_SAFE_INTEGER))
}).pipe(
  Schema.filter((query) => {
    if (query.mode === "time") {
      if (query.limit !== undefined) return { path: ["limit"], message: rules.offsetOnly }
      if (query.offset !== undefined) return { path: ["offset"], message: rules.offsetOnly }
      if (query.from === undefined) return { path: ["from"], message: rules.requiredInTime }
      if (query.to === undefined) return { path: ["to"], message: rules.requiredInTime }
      if (query.to < query.from) return { path: ["to"], message: rules.order }
      return true
    }
    if (query.from !== undefined) return { path: ["from"], message: rules.timeOnly }
    if (query.to !== undefined) return { path: ["to"], message: rules.timeOnly }
    return true
  }),
  Schema.annotations({ identifier: "ClaimEventsQuery" })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type ClaimEventsQuery = typeof ClaimEventsQuery.Type

/**
 * When a claim landed. The reference documents an ISO-8601 string and the official SDK types
 * a number: both are read (a number, or a string of digits, as unix seconds); it is written
 * as an ISO-8601 string.
 *
 * @since 0.1.0
 * @category resources
 */
export const ClaimTimestamp = Schema.transformOrFail(Schema.Union(Schema.String, Schema.Number), Schema.DateFromSelf, {
  strict: true,
  decode: (input, _, ast) => {
    const date = typeof input === "number" || /^[0-9]{1,15}$/.test(input)
      ? new Date(Number(input) * 1000)
      : new Date(input)
    return Number.isNaN(date.getTime())
      ? ParseResult.fail(new ParseResult.Type(ast, input, "must be an ISO-8601 time or unix seconds"))
      : ParseResult.succeed(date)
  },
  encode: (date) => ParseResult.succeed(date.toISOString())
}).annotations({ identifier: "ClaimTimestamp" })

/**
 * One landed claim: the wallet, whether it is the token's creator, the amount in lamports,
 * the transaction's signature and when it landed.
 *
 * @since 0.1.0
 * @category resources
 */
export const ClaimEvent = Schema.Struct({
  wallet: Schema.String,
  isCreator: Schema.Boolean,
  amount: RawAmount,
  signature: Schema.String,
  timestamp: ClaimTimestamp
}).annotations({ identifier: "ClaimEvent" })

/**
 * @since 0.1.0
 * @category resources
 */
export type ClaimEvent = typeof ClaimEvent.Type

/**
 * @since 0.1.0
 * @category resources
 */
export const ClaimEvents = Schema.Struct({ events: Schema.Array(ClaimEvent) }).annotations({
  identifier: "ClaimEvents"
})

/**
 * @since 0.1.0
 * @category resources
 */
export type ClaimEvents = typeof ClaimEvents.Type
