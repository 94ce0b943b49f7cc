/**
 * What one call may carry in its context: overrides of the client's time limit, attempts and
 * rate-limit wait (`CallOptions.withCallOptions`, `CallOptions.layer`), and the cell its answer
 * is recorded in (`CallOptions.withResponse`). Both are `Context.Reference`s: absent, the client's own
 * settings apply and nothing is recorded.
 */
import type { RateLimit } from "@feeshare/domain"
import { Context } from "effect"
import type { Settings } from "./settings.js"

/** Overrides of one call, validated; `undefined` keeps the client's setting. */
export interface Overrides {
  readonly timeoutMillis: number | undefined
  readonly maxAttempts: number | undefined
  readonly maxRateLimitWaitMillis: number | undefined
}

/** The overrides of the calls in scope. */
export class CurrentOverrides extends Context.Reference<CurrentOverrides>()(
  "@feeshare/client/CallOverrides",
  { defaultValue: (): Overrides | undefined => undefined }
) {}

/** The latest answer of the service, as `withResponse` gives it. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly rateLimit: RateLimit.RateLimitInfo | undefined
}

/** Where the answers of the calls in scope are recorded (the latest wins). */
export interface Sink {
  answer: Answer | undefined
}

/** The answer cell of the calls in scope. */
export class CurrentSink extends Context.Reference<CurrentSink>()(
  "@feeshare/client/ResponseSink",
  { defaultValue: (): Sink | undefined => undefined }
) {}

/** The settings one call runs with: the client's, with its overrides applied. */
export interface Effective {
  readonly timeoutMillis: number
  readonly maxAttempts: number
  readonly maxRateLimitWaitMillis: number
}

/** The client's settings with `overrides` applied. */
export const effective = (settings: Settings, overrides: Overrides | undefined): Effective =>
  overrides === undefined
    ? {
      timeoutMillis: settings.timeoutMillis,
      maxAttempts: settings.retry.maxAttempts,
      maxRateLimitWaitMillis: settings.maxRateLimitWaitMillis
    }
    : {
      timeoutMillis: overrides.timeoutMillis ?? settings.timeoutMillis,
      maxAttempts: overrides.maxAttempts ?? settings.retry.maxAttempts,
      maxRateLimitWaitMillis: overrides.maxRateLimitWaitMillis ?? settings.maxRateLimitWaitMillis
    }
