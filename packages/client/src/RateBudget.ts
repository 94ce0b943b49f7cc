/**
 * A client-side sliding-window request budget (`limit` requests in any `window`), shared by
 * every operation of one client. The counting lives behind a small `Store` interface: the
 * in-memory store serves one process; a shared store (`RedisBudget`, for a fleet of processes
 * that share one account-wide limit) implements the same interface without touching callers.
 *
 * A store decides on its own clock (the in-memory store: the process's `Clock`; Redis: the
 * server's `TIME`), never on a time the caller supplies, so that machines whose clocks differ
 * still count in one window.
 *
 * @since 0.1.0
 */
import { FeeShareError } from "@feeshare/domain"
import { Clock, Duration, Effect } from "effect"
import type * as Scope from "effect/Scope"

/**
 * One budget a request counts against: the account's, or the shared address's.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bucket {
  /** The budget's name in the store, e.g. `account:6f1c…` (the store adds its own prefix). */
  readonly key: string
  /** Requests allowed in any window (a positive integer). */
  readonly limit: number
  /** Length of the sliding window, in milliseconds. */
  readonly windowMillis: number
}

/**
 * What the service said about its own count (its `X-RateLimit-*` headers, or a 429), to
 * correct the store: the server stays the truth.
 *
 * @since 0.1.0
 * @category models
 */
export interface Observation {
  /** Requests the service counted in its window when it answered (`limit - remaining`). */
  readonly used: number
  /** The service's own limit (`X-RateLimit-Limit`); 0 when unknown. */
  readonly limit: number
  /**
   * How long ago the answer arrived, in milliseconds (a duration on the caller's clock, so
   * that the store places it on its own clock without trusting the caller's time).
   */
  readonly ageMillis: number
  /**
   * From the answer to the service's reset (when the oldest request it counted leaves its
   * window); 0 when unknown. Requests the store misses are spread from that oldest one to
   * the answer, instead of all being counted at the answer (which would hold them a whole
   * window).
   */
  readonly resetInMillis: number
  /** A 429's wait until the reset: every process waits that long from the answer. 0: none. */
  readonly blockMillis: number
}

/**
 * Where the budget's requests are counted.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store {
  /** Names the store in errors and logs (never with credentials), e.g. `memory`. */
  readonly name: string
  /**
   * Whether other processes share the store. A shared store counts under the account (the
   * user's id, asked once from `auth/me`) unless the budget names its `key`.
   */
  readonly shared: boolean
  /**
   * Atomically, on the store's clock: applies `observation` (when given), then, when no 429
   * block is running and every bucket holds fewer than its limit (the lower of the bucket's
   * and the service's last reported one) in the window `(now - windowMillis, now]`, records
   * one request in each and answers `0`; otherwise records nothing and answers the
   * milliseconds until a slot frees (or the block ends).
   */
  readonly take: (
    buckets: ReadonlyArray<Bucket>,
    observation?: Observation | undefined
  ) => Effect.Effect<number, FeeShareError.BudgetUnavailable>
  /**
   * Applies an observation alone: each bucket is raised to at least `used` requests in the
   * window that ends at the answer (requests spent elsewhere, e.g. by another machine, are
   * spread from the service's oldest to the answer), the service's limit is remembered for
   * a window, and `blockMillis` makes every taker wait until the service's reset.
   */
  readonly observe: (
    buckets: ReadonlyArray<Bucket>,
    observation: Observation
  ) => Effect.Effect<void, FeeShareError.BudgetUnavailable>
}

/**
 * The budget of a client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Requests allowed in any window (a positive integer). The service's own
   * `X-RateLimit-Limit`, once seen, lowers it when smaller.
   */
  readonly limit: number
  /** Length of the sliding window. */
  readonly window: Duration.DurationInput
  /**
   * Added to `window` when counting (default 1 second): a request is admitted before it
   * reaches the service, and one admitted earlier may arrive later, so the budget keeps each
   * request a little longer than the service does.
   */
  readonly margin?: Duration.DurationInput | undefined
  /**
   * Where requests are counted (default: a new in-memory store per client): a store, or an
   * effect that makes one for the client's lifetime (e.g. `RedisBudget.make({ url })`, whose
   * connection closes with the client).
   */
  readonly store?: Store | Effect.Effect<Store, never, Scope.Scope> | undefined
  /**
   * The account's budget name. Default: `default` for an in-memory store; for a shared
   * store, the id of the user that owns the API key (asked once from `auth/me`), so that
   * every key of one account counts in one budget (`anonymous` without an API key). The API
   * key itself is never written to the store, hashed or not.
   */
  readonly key?: string | undefined
  /**
   * A second budget for the processes that share one address (the service limits each IP
   * too): a name for the address, e.g. the egress IP or the host. Default: none.
   */
  readonly address?: string | undefined
}

/**
 * The documented defaults.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  margin: Duration.seconds(1)
} as const

/**
 * A store's failure, before the client names the operation.
 *
 * @since 0.1.0
 * @category constructors
 */
export const unavailable = (store: string, message: string): FeeShareError.BudgetUnavailable =>
  new FeeShareError.BudgetUnavailable({ status: 0, message, operation: "", store })

interface Log {
  /** Admission times, ascending. */
  times: Array<number>
  /** The service's limit and until when it is remembered. */
  seenLimit: number
  seenUntil: number
  blockedUntil: number
}

const insertSorted = (times: Array<number>, at: number, count: number): void => {
  let i = times.length
  while (i > 0 && times[i - 1]! > at) i--
  times.splice(i, 0, ...Array.from({ length: count }, () => at))
}

/** The `k`-th of `n` times spread evenly from `from` to `to` (whole milliseconds). */
const spread = (from: number, to: number, k: number, n: number): number => from + Math.floor(((to - from) * k) / n)

/**
 * The algorithm of every store, on plain logs: what `RedisBudget`'s script does on the
 * server. Exported for the in-memory store and the Redis store's local fallback.
 *
 * @since 0.1.0
 * @category internals
 */
export const makeLogs = () => {
  const logs = new Map<string, Log>()
  const logOf = (key: string): Log => {
    let log = logs.get(key)
    if (log === undefined) {
      log = { times: [], seenLimit: 0, seenUntil: 0, blockedUntil: 0 }
      logs.set(key, log)
    }
    return log
  }
  const prune = (log: Log, cutoff: number) => {
    const live = log.times.findIndex((at) => at > cutoff)
    log.times.splice(0, live === -1 ? log.times.length : live)
  }
  const observe = (buckets: ReadonlyArray<Bucket>, observation: Observation, now: number): void => {
    const at = now - Math.max(0, observation.ageMillis)
    for (const bucket of buckets) {
      const log = logOf(bucket.key)
      if (observation.limit > 0) {
        log.seenLimit = observation.limit
        log.seenUntil = now + bucket.windowMillis
      }
      const have = log.times.filter((time) => time > at - bucket.windowMillis && time <= at).length
      // bounded by the bucket's limit: a hostile `used` cannot grow the log
      const missing = Math.min(observation.used, bucket.limit) - have
      const oldest = at - bucket.windowMillis + Math.min(Math.max(0, observation.resetInMillis), bucket.windowMillis)
      const from = observation.resetInMillis > 0 ? Math.max(oldest, at - bucket.windowMillis + 1) : at
      for (let k = 0; k < missing; k++) insertSorted(log.times, spread(from, at, k, missing), 1)
      if (observation.blockMillis > 0) log.blockedUntil = Math.max(log.blockedUntil, at + observation.blockMillis)
    }
  }
  const take = (buckets: ReadonlyArray<Bucket>, now: number): number => {
    let wait = 0
    for (const bucket of buckets) {
      const log = logOf(bucket.key)
      wait = Math.max(wait, log.blockedUntil - now)
    }
    if (wait > 0) return wait
    for (const bucket of buckets) {
      const log = logOf(bucket.key)
      prune(log, now - bucket.windowMillis)
      const limit = log.seenLimit > 0 && log.seenUntil > now ? Math.min(bucket.limit, log.seenLimit) : bucket.limit
      const count = log.times.length
      if (count >= limit) {
        // the (count - limit + 1)-th oldest must leave before one more fits
        const leaving = log.times[count - limit]!
        wait = Math.max(wait, leaving + bucket.windowMillis - now, 1)
      }
    }
    if (wait > 0) return wait
    for (const bucket of buckets) logOf(bucket.key).times.push(now)
    return 0
  }
  return { observe, take, size: () => logs.size }
}

/**
 * Sliding-window logs in memory, on the process's `Clock`. `take` runs synchronously, so
 * concurrent fibers never see a half-updated log; it never fails.
 *
 * @since 0.1.0
 * @category stores
 */
export const memoryStore = (): Store => {
  const logs = makeLogs()
  return {
    name: "memory",
    shared: false,
    take: (buckets, observation) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        if (observation !== undefined) logs.observe(buckets, observation, now)
        return logs.take(buckets, now)
      }),
    observe: (buckets, observation) =>
      Effect.map(Clock.currentTimeMillis, (now) => logs.observe(buckets, observation, now))
  }
}
