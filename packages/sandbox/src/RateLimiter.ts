/**
 * Sliding-window rate limits: a log of admitted request times per bucket (a user, an IP,
 * the agent-auth operations of an IP). A request is admitted only when every bucket it
 * counts against has room, and then it is recorded in all of them, in one synchronous step,
 * so concurrent requests can never be admitted past a limit.
 *
 * @since 0.1.0
 */
import { RateLimitInfo } from "@feeshare/domain/RateLimit"
import { Clock, Context, Effect, Layer } from "effect"

/**
 * A budget a request counts against.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bucket {
  readonly key: string
  readonly limit: number
  readonly windowMillis: number
  /** Reported in the headers only when it is the bucket that refuses the request. */
  readonly hidden?: boolean | undefined
}

/**
 * The outcome for one request: `info` describes the most constrained bucket (what the
 * `X-RateLimit-*` headers and a 429 body report); `bucket` names it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decision {
  readonly admitted: boolean
  readonly bucket: string
  readonly info: RateLimitInfo
}

/**
 * @since 0.1.0
 * @category tags
 */
export class RateLimiter extends Context.Tag("@feeshare/sandbox/RateLimiter")<RateLimiter, RateLimiter.Service>() {}

/**
 * @since 0.1.0
 */
export declare namespace RateLimiter {
  /**
   * @since 0.1.0
   * @category models
   */
  export interface Service {
    /** Admits (and records) a request against every bucket, or refuses it, at the Clock's time. */
    readonly admit: (buckets: ReadonlyArray<Bucket>) => Effect.Effect<Decision>
    /** The same decision at an explicit time (epoch milliseconds). */
    readonly admitAt: (buckets: ReadonlyArray<Bucket>, now: number) => Decision
  }
}

/** Admission times of one bucket, oldest first; `head` skips the expired prefix. */
interface Log {
  times: Array<number>
  head: number
}

const prune = (log: Log, cutoff: number): void => {
  while (log.head < log.times.length && log.times[log.head]! <= cutoff) log.head++
  if (log.head > 1024 && log.head * 2 > log.times.length) {
    log.times = log.times.slice(log.head)
    log.head = 0
  }
}

const count = (log: Log): number => log.times.length - log.head

/**
 * A new, empty set of logs.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeUnsafe = (): RateLimiter.Service => {
  const logs = new Map<string, Log>()
  const admitAt = (buckets: ReadonlyArray<Bucket>, now: number): Decision => {
    const states = buckets.map((bucket) => {
      let log = logs.get(bucket.key)
      if (log === undefined) {
        log = { times: [], head: 0 }
        logs.set(bucket.key, log)
      }
      prune(log, now - bucket.windowMillis)
      return { bucket, log }
    })
    const admitted = states.every(({ bucket, log }) => count(log) < bucket.limit)
    if (admitted) for (const { log } of states) log.times.push(now)
    // the reported bucket: the first full one when refused; else the visible one with the fewest left
    const left = (state: (typeof states)[number]) => state.bucket.limit - count(state.log)
    let reported = admitted ? undefined : states.find((state) => left(state) <= 0)
    if (reported === undefined) {
      for (const state of states) {
        if (state.bucket.hidden === true) continue
        if (reported === undefined || left(state) < left(reported)) reported = state
      }
    }
    if (reported === undefined) {
      return {
        admitted: true,
        bucket: "",
        info: new RateLimitInfo({ limit: 0, remaining: 0, resetAt: Math.ceil(now / 1000) }, { disableValidation: true })
      }
    }
    const { bucket, log } = reported
    const used = count(log)
    const oldest = used === 0 ? now : log.times[log.head]!
    return {
      admitted,
      bucket: bucket.key,
      info: new RateLimitInfo({
        limit: bucket.limit,
        remaining: Math.max(0, bucket.limit - used),
        resetAt: Math.ceil((oldest + bucket.windowMillis) / 1000)
      }, { disableValidation: true })
    }
  }
  return {
    admitAt,
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
