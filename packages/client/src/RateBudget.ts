/**
 * A client-side sliding-window request budget (`limit` requests in any `window`), shared by
 * every operation of one client. The counting lives behind a small `Store` interface: the
 * in-memory store serves one process; a shared store (Redis, for a fleet of processes that
 * share one account-wide limit) implements the same interface without touching callers.
 *
 * @since 0.1.0
 */
import { Duration, Effect } from "effect"

/**
 * Where the budget's requests are counted.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store {
  /**
   * Atomically: when fewer than `limit` requests were recorded under `key` in the window
   * `(now - windowMillis, now]`, records one at `now` and answers `0`; otherwise records
   * nothing and answers the milliseconds until the oldest of them leaves the window.
   */
  readonly take: (key: string, limit: number, windowMillis: number, now: number) => Effect.Effect<number>
}

/**
 * The budget of a client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Requests allowed in any window (a positive integer). */
  readonly limit: number
  /** Length of the sliding window. */
  readonly window: Duration.DurationInput
  /** Where requests are counted (default: a new in-memory store per client). */
  readonly store?: Store | undefined
  /** The key requests are counted under in the store (default `"default"`). */
  readonly key?: string | undefined
}

/**
 * A sliding-window log per key, in memory. `take` runs synchronously, so concurrent fibers
 * never see a half-updated log.
 *
 * @since 0.1.0
 * @category stores
 */
export const memoryStore = (): Store => {
  const logs = new Map<string, Array<number>>()
  return {
    take: (key, limit, windowMillis, now) =>
      Effect.sync(() => {
        let log = logs.get(key)
        if (log === undefined) {
          log = []
          logs.set(key, log)
        }
        const live = log.findIndex((at) => at > now - windowMillis)
        log.splice(0, live === -1 ? log.length : live)
        const oldest = log[0]
        if (oldest === undefined || log.length < limit) {
          log.push(now)
          return 0
        }
        return oldest + windowMillis - now
      })
  }
}
