/**
 * Which failures are retried, and how long to wait between attempts: jittered exponential
 * backoff, a capped number of attempts.
 *
 * @since 0.1.0
 */
import type { FeeShareError } from "@feeshare/domain"
import { Duration, Effect, Option, Random, Schedule } from "effect"

/**
 * Retry settings of a client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Attempts per call, the first one included (default 5; 1 turns retries off). */
  readonly maxAttempts?: number | undefined
  /** Wait before the second attempt; it doubles for every further attempt (default 200 ms). */
  readonly baseDelay?: Duration.DurationInput | undefined
  /** Upper bound of a single wait (default 10 s). */
  readonly maxDelay?: Duration.DurationInput | undefined
}

/**
 * Retry settings with every default filled in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Policy {
  readonly maxAttempts: number
  readonly baseDelayMillis: number
  readonly maxDelayMillis: number
}

/**
 * @since 0.1.0
 * @category constants
 */
export const defaults: Policy = { maxAttempts: 5, baseDelayMillis: 200, maxDelayMillis: 10_000 }

const millis = (input: Duration.DurationInput | undefined, fallback: number): number =>
  input === undefined
    ? fallback
    : Option.match(Duration.decodeUnknown(input), { onNone: () => Number.NaN, onSome: Duration.toMillis })

/**
 * Fills in the defaults. A duration that cannot be read becomes `NaN` (the client rejects it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Policy => ({
  maxAttempts: options.maxAttempts ?? defaults.maxAttempts,
  baseDelayMillis: millis(options.baseDelay, defaults.baseDelayMillis),
  maxDelayMillis: millis(options.maxDelay, defaults.maxDelayMillis)
})

/**
 * The HTTP statuses worth another attempt: 408, 500, 502, 503, 504. Never 400, 401, 403,
 * 404 or 413. A 429 has its own handling: the client waits for its reset (or, when the
 * answer does not say when that is, backs off like a transient failure).
 *
 * @since 0.1.0
 * @category constants
 */
export const transientStatuses: ReadonlySet<number> = new Set([408, 500, 502, 503, 504])

/**
 * `true` for failures that another attempt may fix: a transient status (whatever the
 * body), a transport failure, or no answer in time.
 *
 * @since 0.1.0
 * @category predicates
 */
export const isTransient = (error: FeeShareError.ApiFailure): boolean => {
  switch (error._tag) {
    case "TransportError":
    case "Timeout":
      return true
    case "ServerError":
    case "UnexpectedResponse":
      return transientStatuses.has(error.status)
    default:
      return false
  }
}

/**
 * The wait after failed attempt number `attempt` (1-based): `baseDelay * 2^(attempt-1)`,
 * capped at `maxDelay`, then jittered into its upper half with `random` in `[0, 1)`
 * ("equal jitter": callers that failed together do not come back together).
 *
 * @since 0.1.0
 * @category backoff
 */
export const delayMillis = (policy: Policy, attempt: number, random: number): number => {
  const exponential = Math.min(policy.maxDelayMillis, policy.baseDelayMillis * 2 ** Math.max(0, attempt - 1))
  return Math.round(exponential / 2 + (exponential / 2) * random)
}

/**
 * The backoff as a `Schedule`: recurrence `n` (0-based) waits `delayMillis(policy, n + 1, r)`
 * with `r` from the fiber's `Random`, and outputs that wait. It never stops by itself: the
 * client counts the attempts (a `Retry-After` or a 429's reset take attempts too).
 *
 * @since 0.1.0
 * @category backoff
 */
export const schedule = (policy: Policy): Schedule.Schedule<Duration.Duration> =>
  Schedule.forever.pipe(
    Schedule.mapEffect((recurrence) =>
      Effect.map(Random.next, (random) => Duration.millis(delayMillis(policy, recurrence + 1, random)))
    ),
    Schedule.addDelay((delay) => delay)
  )
