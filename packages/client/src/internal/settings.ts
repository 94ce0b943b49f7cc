/**
 * What every module of one call reads from its client: the settings `FeeShareClient.make`
 * resolves once, the client-side budget, and the rate-limit waits it reports.
 */
import type { HttpClient, HttpClientError } from "@effect/platform"
import type { FeeShareError, RateLimit } from "@feeshare/domain"
import type { Effect, Option, Redacted, Scope, SubscriptionRef } from "effect"
import type * as RateBudget from "../RateBudget.js"
import type * as RetryPolicy from "../RetryPolicy.js"
import type * as Exchange from "./exchange.js"
import type { Watchdog } from "./watchdog.js"

/** Everything an operation needs from its client, resolved once by `make`. */
export interface Settings {
  /** The transport, each request's `AbortController` tied to the `Scope` provided to it. */
  readonly http: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>
  /** `{base_url}` without a trailing slash. */
  readonly baseUrl: string
  /** `{root_url}`: `{base_url}` without its trailing `Api.basePath`. */
  readonly rootUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly timeoutMillis: number
  /** Enforces `timeoutMillis` on every attempt. */
  readonly watchdog: Watchdog
  readonly retry: RetryPolicy.Policy
  readonly maxRateLimitWaitMillis: number
  readonly budget: Option.Option<Budget>
  readonly rateLimit: SubscriptionRef.SubscriptionRef<Option.Option<RateLimit.RateLimitInfo>>
  /** Redirect hops and body size allowed per request. */
  readonly limits: Exchange.Limits
  /**
   * The fetch options every request runs with (the caller's own, if any, plus the redirect
   * mode: `manual` where a redirect's Location can be read, `error` elsewhere).
   */
  readonly requestInit: globalThis.RequestInit
  /** Told before every rate-limit wait (a spent window, the budget, a 429, a Retry-After). */
  readonly onWait: (wait: RateLimitWait) => Effect.Effect<void>
}

/** The client-side budget of a client, resolved by `make`. */
export interface Budget {
  readonly store: RateBudget.Store
  /** The configured limit (reported by a `RateLimited` the budget causes). */
  readonly limit: number
  /** The buckets every call counts against (the account is resolved once, on first use). */
  buckets: Effect.Effect<ReadonlyArray<RateBudget.Bucket>, FeeShareError.FeeShareError>
  /** The counts of the latest answer, not yet given to the store: they go with the next admission. */
  pending: Pending | undefined
}

/** An answer's counts, kept for the next admission. */
export interface Pending {
  readonly used: number
  readonly limit: number
  /** The local time of the answer, and of the service's reset (both on this process's clock). */
  readonly receivedAt: number
  readonly resetAtMillis: number
}

/**
 * A rate-limit reset further ahead than this is not believed: the service's window is one
 * hour, so such a reset comes from a broken or hostile answer. The next call waits the
 * caller's wait budget at most, then is sent, and its answer decides.
 */
export const untrustedResetMillis = 2 * 60 * 60 * 1000

/** The observation of an answer received `now - receivedAt` ago. */
export const observationOf = (pending: Pending, now: number): RateBudget.Observation => ({
  used: pending.used,
  limit: pending.limit,
  ageMillis: Math.max(0, now - pending.receivedAt),
  resetInMillis: Math.max(0, Math.min(untrustedResetMillis, pending.resetAtMillis - pending.receivedAt)),
  blockMillis: 0
})

/**
 * A wait the client is about to make before sending again.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimitWait {
  readonly operation: string
  readonly waitMillis: number
  readonly reason: "rate_limit_reset" | "budget" | "retry_after"
}
