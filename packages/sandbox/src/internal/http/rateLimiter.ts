/**
 * The `RateLimiter` service's tag and interface, and its models (buckets, decisions); the
 * implementation is `RateLimiter.ts`, which re-exports them.
 */
import type { RateLimitInfo } from "@feeshare/domain/RateLimit"
import { Context, type Effect } from "effect"

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
 * `X-RateLimit-*` headers and a 429 body report); `bucket` names it. `limit`, `remaining`
 * and `resetAt` are the numbers of `info`, readable without building it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decision {
  readonly admitted: boolean
  readonly bucket: string
  readonly info: RateLimitInfo
  readonly limit: number
  readonly remaining: number
  /** Unix time in seconds. */
  readonly resetAt: number
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
    /** How many bucket logs are kept. */
    readonly size: () => number
    /** The visible buckets with something in their window at `now`: at most `max`, for the explorer. */
    readonly inspect: (now: number, max: number) => ReadonlyArray<BucketState>
  }
}

/**
 * A bucket as the explorer shows it: its key (`user:ID`, `ip:ADDRESS`), its limit, what is left
 * of it and when its oldest admission leaves the window (epoch seconds).
 *
 * @since 0.1.0
 * @category models
 */
export interface BucketState {
  readonly key: string
  readonly limit: number
  readonly remaining: number
  readonly resetAt: number
}
