/**
 * A rate budget shared by a fleet of processes through Redis, for `FeeShare`'s `budget`. Uses
 * `ioredis` 5, an optional peer dependency: install it (`npm install ioredis@5`) to use this
 * entry point; `feeshare` itself never loads it. Node only.
 *
 * @example
 * ```ts
 * import { FeeShare } from "feeshare"
 * import { redisStore } from "feeshare/redis"
 *
 * await using feeshare = new FeeShare({
 *   apiKey: process.env.FEESHARE_API_KEY,
 *   budget: { limit: 4500, window: "1 hour", store: redisStore({ url: process.env.FEESHARE_REDIS_URL! }) }
 * })
 * ```
 *
 * The connection opens with the client and closes with `close()`. Requests are counted under
 * the account (the user's id, asked once from `auth/me`; or `budget.key`), never under the API
 * key. See `docs/rate-limits.md` (fleets) for what happens when Redis is down.
 *
 * @since 0.1.0
 * @module feeshare/redis
 */
import * as RateBudget from "@feeshare/client/RateBudget"
import * as RedisBudget from "@feeshare/client/RedisBudget"
import type { Duration, Effect, Redacted } from "effect"
import type * as Scope from "effect/Scope"

/**
 * @since 0.1.0
 * @category models
 */
export interface RedisStoreOptions {
  /**
   * `redis://[[user]:password@]host[:port][/db]` (or `rediss://`); pass it as `Redacted` when
   * it holds a password, which then never appears in errors or logs.
   */
  readonly url: string | Redacted.Redacted<string>
  /** Separates environments sharing one Redis (default `feeshare`). */
  readonly prefix?: string | undefined
  /** The most one admission may take (default 1 s); then Redis counts as unavailable. */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * When Redis is down or slower than `timeout`: `"fail"` (default) rejects the call with
   * `BudgetUnavailable` (nothing sent); `"local"` counts in this process meanwhile, with a
   * warning on the console.
   */
  readonly onUnavailable?: "fail" | "local" | undefined
  /** With `"local"`: how long to count locally after a failure before asking Redis again (default 1 s). */
  readonly retryAfter?: Duration.DurationInput | undefined
}

/**
 * The store to pass as `budget.store`. Nothing connects until a `FeeShare` is built with it;
 * each `FeeShare` opens its own connection.
 *
 * @since 0.1.0
 * @category constructors
 */
export const redisStore = (options: RedisStoreOptions): Effect.Effect<RateBudget.Store, never, Scope.Scope> =>
  RedisBudget.make(options)

/**
 * The documented defaults of a `redisStore` and of the budget's margin.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = { ...RedisBudget.defaults, margin: RateBudget.defaults.margin } as const
