/**
 * Sliding-window rate limits: a log of admitted request times per bucket (a user, an IP,
 * the agent-auth operations of an IP), with the requests of one millisecond counted in one
 * entry. A request is admitted only when every bucket it counts against has room, and then it
 * is recorded in all of them, in one synchronous step, so concurrent requests can never be
 * admitted past a limit. Logs with nothing left in their window are swept, and at most
 * `maxLogs` are kept (past it the least recently created go first): many client addresses
 * cost bounded memory.
 *
 * @since 0.1.0
 */
import { RateLimitInfo } from "@feeshare/domain/RateLimit"
import { Clock, Effect, Layer } from "effect"
import { type Bucket, type BucketState, type Decision, RateLimiter } from "./internal/http/rateLimiter.js"

export { type Bucket, type BucketState, type Decision, RateLimiter } from "./internal/http/rateLimiter.js"

/**
 * Admissions of one bucket, oldest first, run-length encoded: `counts[i]` requests were
 * admitted at `times[i]` (requests in the same millisecond share one entry). `head` skips
 * the expired prefix; `total` is the number of admissions still in the window.
 */
interface Log {
  readonly windowMillis: number
  readonly limit: number
  readonly hidden: boolean
  times: Array<number>
  counts: Array<number>
  head: number
  total: number
}

const prune = (log: Log, cutoff: number): void => {
  while (log.head < log.times.length && log.times[log.head]! <= cutoff) {
    log.total -= log.counts[log.head]!
    log.head++
  }
  if (log.head > 1024 && log.head * 2 > log.times.length) {
    log.times = log.times.slice(log.head)
    log.counts = log.counts.slice(log.head)
    log.head = 0
  }
}

const record = (log: Log, now: number): void => {
  const last = log.times.length - 1
  if (last >= log.head && log.times[last] === now) log.counts[last]!++
  else {
    log.times.push(now)
    log.counts.push(1)
  }
  log.total++
}

class DecisionImpl implements Decision {
  private cached: RateLimitInfo | undefined = undefined
  constructor(
    readonly admitted: boolean,
    readonly bucket: string,
    readonly limit: number,
    readonly remaining: number,
    readonly resetAt: number
  ) {}
  get info(): RateLimitInfo {
    if (this.cached === undefined) {
      this.cached = new RateLimitInfo(
        { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt },
        { disableValidation: true }
      )
    }
    return this.cached
  }
}

/**
 * The most bucket logs kept.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLogs = 50_000

/**
 * A new, empty set of logs.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (): RateLimiter.Service => {
  const logs = new Map<string, Log>()
  // the logs of the buckets of the current call (admitAt is synchronous: one call at a time)
  const current: Array<Log> = []
  let sweepAbove = 1024
  /** Drops the logs with nothing in their window, then the oldest while over `maxLogs`. */
  const sweep = (now: number): void => {
    for (const [key, log] of logs) {
      prune(log, now - log.windowMillis)
      if (log.total === 0) logs.delete(key)
    }
    // over the cap: down to 90% of it, so that the next sweep is thousands of new logs away
    for (const key of logs.keys()) {
      if (logs.size <= maxLogs * 0.9) break
      logs.delete(key)
    }
    sweepAbove = Math.min(maxLogs, Math.max(1024, logs.size * 2))
  }
  const logOf = (bucket: Bucket): Log => {
    let log = logs.get(bucket.key)
    if (log === undefined) {
      log = {
        windowMillis: bucket.windowMillis,
        limit: bucket.limit,
        hidden: bucket.hidden === true,
        times: [],
        counts: [],
        head: 0,
        total: 0
      }
      logs.set(bucket.key, log)
    }
    return log
  }
  const admitAt = (buckets: ReadonlyArray<Bucket>, now: number): Decision => {
    if (logs.size >= sweepAbove) sweep(now)
    const n = buckets.length
    let admitted = true
    for (let i = 0; i < n; i++) {
      const bucket = buckets[i]!
      const log = logOf(bucket)
      prune(log, now - bucket.windowMillis)
      if (log.total >= bucket.limit) admitted = false
      current[i] = log
    }
    if (admitted) { for (let i = 0; i < n; i++) record(current[i]!, now) }
    // the reported bucket: the first full one when refused; else the visible one with the fewest left
    let reported = -1
    if (!admitted) {
      for (let i = 0; i < n && reported < 0; i++) if (buckets[i]!.limit - current[i]!.total <= 0) reported = i
    }
    if (reported < 0) {
      let fewest = Infinity
      for (let i = 0; i < n; i++) {
        if (buckets[i]!.hidden === true) continue
        const left = buckets[i]!.limit - current[i]!.total
        if (left < fewest) {
          fewest = left
          reported = i
        }
      }
    }
    if (reported < 0) {
      current.length = 0
      return new DecisionImpl(true, "", 0, 0, Math.ceil(now / 1000))
    }
    const bucket = buckets[reported]!
    const log = current[reported]!
    current.length = 0
    const used = log.total
    const oldest = used === 0 ? now : log.times[log.head]!
    return new DecisionImpl(
      admitted,
      bucket.key,
      bucket.limit,
      Math.max(0, bucket.limit - used),
      Math.ceil((oldest + bucket.windowMillis) / 1000)
    )
  }
  const inspect = (now: number, max: number): ReadonlyArray<BucketState> => {
    const states: Array<BucketState> = []
    for (const [key, log] of logs) {
      if (states.length >= max) break
      if (log.hidden) continue
      prune(log, now - log.windowMillis)
      if (log.total === 0) continue
      states.push({
        key,
        limit: log.limit,
        remaining: Math.max(0, log.limit - log.total),
        resetAt: Math.ceil((log.times[log.head]! + log.windowMillis) / 1000)
      })
    }
    return states
  }
  return {
    admitAt,
    inspect,
    size: () => logs.size,
    admit: (buckets) => Effect.map(Clock.currentTimeMillis, (now) => admitAt(buckets, now))
  }
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<RateLimiter.Service> = Effect.sync(makeUnsafe)

/**
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<RateLimiter> = Layer.effect(RateLimiter, make)
