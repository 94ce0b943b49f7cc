/**
 * A `RateBudget.Store` in Redis (over `ioredis` 5, an optional peer dependency): a fleet of
 * processes that share one account counts its requests in one sliding-window log per budget,
 * so that together they stay under the service's limit.
 *
 * Every admission is one atomic Lua script on the Redis server: it reads the server's `TIME`
 * (never a caller's clock), applies the service's latest counts, honours a 429 block, and
 * admits (recording the request in every bucket) or answers the wait until a slot frees. The
 * log is a sorted set of admission times, the service's own semantics (a sliding window),
 * so it admits no burst the service would refuse, unlike a fixed window or a token bucket.
 *
 * When Redis is down or slow, each admission has a deadline (`timeout`), nothing is queued
 * while disconnected, and `onUnavailable` chooses: `"fail"` (default) fails the call with
 * `BudgetUnavailable` before anything is sent; `"local"` counts in this process's memory
 * meanwhile, with a warning in the log.
 *
 * Not imported by `@feeshare/client`'s index: import `@feeshare/client/RedisBudget`.
 *
 * @since 0.1.0
 * @module @feeshare/client/RedisBudget
 */
import type { FeeShareError } from "@feeshare/domain"
import { Clock, Config, Duration, Effect, Option, Redacted } from "effect"
import type { ConfigError } from "effect/ConfigError"
import type * as Scope from "effect/Scope"
import { Redis } from "ioredis"
import { createHash, randomBytes } from "node:crypto"
import * as RateBudget from "./RateBudget.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS). Pass it as
   * `Redacted` when it holds a password: the password never appears in errors or logs.
   */
  readonly url?: string | Redacted.Redacted<string> | undefined
  /** An ioredis client of your own instead of `url` (it is neither configured nor closed here). */
  readonly client?: Redis | undefined
  /** Separates environments sharing one Redis (default `feeshare`): keys are `<prefix>:budget:…`. */
  readonly prefix?: string | undefined
  /** The most one admission may take (default 1 s); then Redis counts as unavailable. */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * When Redis is down or slower than `timeout`: `"fail"` (default) fails the call with
   * `BudgetUnavailable`, nothing sent; `"local"` counts in memory meanwhile (each process on its
   * own, so a fleet may exceed the limit until Redis is back: the service's 429s and headers
   * then decide), with a warning in the log when it starts and a note when Redis is back.
   */
  readonly onUnavailable?: "fail" | "local" | undefined
  /** With `"local"`: how long to count locally after a failure before asking Redis again (default 1 s). */
  readonly retryAfter?: Duration.DurationInput | undefined
}

/**
 * The documented defaults.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  prefix: "feeshare",
  timeout: Duration.seconds(1),
  onUnavailable: "fail",
  retryAfter: Duration.seconds(1)
} as const

/**
 * The admission script. KEYS: per bucket its log (a sorted set of admission times, members
 * unique), the service's limit, the 429 block, and the spread (the requests the service
 * counted and this log did not see: `count from to`, standing for `count` admissions at
 * `from + floor((to - from) * k / count)`, k = 0 … count − 1, so a correction is one `SET`
 * whatever numbers the service sent). ARGV: bucket count, a unique member, `take` or
 * `observe`, the observation (used, limit, age, reset-in, block; used -1 for none), then per
 * bucket its limit and window (milliseconds). Every step costs O(1) or O(log n) commands (the
 * wait is a binary search over the window with `ZCOUNT`), and the log only ever holds
 * admissions, at most the bucket's limit. Writes after `TIME` need Redis 5 or later (scripts
 * replicated by their effects, the default since 5.0).
 *
 * @since 0.1.0
 * @category internals
 */
export const script = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local member = ARGV[2]
local used = tonumber(ARGV[4])
local function spreadOf(key)
  local v = redis.call('GET', key)
  if not v then return 0, 0, 0 end
  local c, from, to = string.match(v, '^(%d+) (%-?%d+) (%-?%d+)$')
  if not c then return 0, 0, 0 end
  return tonumber(c), tonumber(from), tonumber(to)
end
local function upTo(c, from, to, x)
  if c == 0 or x < from then return 0 end
  if x >= to or to <= from then return c end
  local k = math.ceil((x - from + 1) * c / (to - from))
  if k > c then return c end
  return k
end
if used >= 0 then
  local seen = tonumber(ARGV[5])
  local at = now - tonumber(ARGV[6])
  local resetIn = tonumber(ARGV[7])
  local block = tonumber(ARGV[8])
  for i = 1, n do
    local log = KEYS[4 * i - 3]
    local limit = tonumber(ARGV[7 + 2 * i])
    local window = tonumber(ARGV[8 + 2 * i])
    if seen > 0 then redis.call('SET', KEYS[4 * i - 2], seen, 'PX', window) end
    local c, f, e = spreadOf(KEYS[4 * i])
    local live = upTo(c, f, e, at) - upTo(c, f, e, at - window)
    local have = redis.call('ZCOUNT', log, '(' .. (at - window), at) + live
    local missing = math.min(used, limit) - have
    if missing > 0 and at + window > now then
      local from = at
      if resetIn > 0 then from = math.max(at - window + math.min(resetIn, window), at - window + 1) end
      redis.call('SET', KEYS[4 * i], string.format('%d %d %d', live + missing, from, at), 'PX', at + window - now)
    end
    if block > 0 then
      local ttl = at + block - now
      if ttl > 0 and redis.call('PTTL', KEYS[4 * i - 1]) < ttl then redis.call('SET', KEYS[4 * i - 1], '1', 'PX', ttl) end
    end
  end
end
if ARGV[3] ~= 'take' then return {0, now} end
local wait = 0
for i = 1, n do
  local blocked = redis.call('PTTL', KEYS[4 * i - 1])
  if blocked > wait then wait = blocked end
end
if wait > 0 then return {wait, now} end
for i = 1, n do
  local log = KEYS[4 * i - 3]
  local limit = tonumber(ARGV[7 + 2 * i])
  local window = tonumber(ARGV[8 + 2 * i])
  local seen = tonumber(redis.call('GET', KEYS[4 * i - 2]))
  if seen and seen > 0 and seen < limit then limit = seen end
  local since = now - window
  redis.call('ZREMRANGEBYSCORE', log, '-inf', since)
  local c, f, e = spreadOf(KEYS[4 * i])
  local gone = upTo(c, f, e, since)
  local count = redis.call('ZCARD', log) + c - gone
  if count >= limit then
    -- the oldest entry whose leaving frees a slot: the smallest time by which enough have been admitted
    local need = count - limit + 1
    local lo, hi = since + 1, now
    while lo < hi do
      local mid = math.floor((lo + hi) / 2)
      if redis.call('ZCOUNT', log, '(' .. since, mid) + upTo(c, f, e, mid) - gone >= need then hi = mid else lo = mid + 1 end
    end
    local w = lo + window - now
    if w < 1 then w = 1 end
    if w > wait then wait = w end
  end
end
if wait > 0 then return {wait, now} end
for i = 1, n do
  redis.call('ZADD', KEYS[4 * i - 3], now, member)
  redis.call('PEXPIRE', KEYS[4 * i - 3], tonumber(ARGV[8 + 2 * i]))
end
return {0, now}
`

const sha = createHash("sha1").update(script).digest("hex")

/** `redis://host:port/db` of a URL, without its credentials. */
const nameOf = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.hostname}${parsed.port === "" ? "" : `:${parsed.port}`}${
      parsed.pathname === "/" ? "" : parsed.pathname
    }`
  } catch {
    return "redis (unparsable URL)"
  }
}

const millisOf = (input: Duration.DurationInput | undefined, fallback: Duration.Duration): number => {
  const duration = input === undefined ? Option.some(fallback) : Duration.decodeUnknown(input)
  const millis = Option.isSome(duration) ? Duration.toMillis(duration.value) : Number.NaN
  return Number.isFinite(millis) && millis > 0 ? millis : Duration.toMillis(fallback)
}

const describe = (cause: unknown): string =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "unknown failure"

/**
 * The store over a Redis connection that lives as long as the scope (a `client` you pass is
 * left open). It connects in the background: building it never fails, and an admission while
 * Redis is unreachable follows `onUnavailable` at once (nothing waits for a reconnection).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<RateBudget.Store, never, Scope.Scope> =>
  Effect.gen(function*() {
    const timeoutMillis = millisOf(options.timeout, defaults.timeout)
    const retryAfterMillis = millisOf(options.retryAfter, defaults.retryAfter)
    const prefix = options.prefix ?? defaults.prefix
    const secret = options.url === undefined
      ? undefined
      : Redacted.isRedacted(options.url)
      ? Redacted.value(options.url)
      : options.url
    const password = (() => {
      if (secret === undefined) return ""
      try {
        return decodeURIComponent(new URL(secret).password)
      } catch {
        return ""
      }
    })()
    /** A message never carries the password, whatever the driver put into it. */
    const scrub = (text: string) => (password.length > 0 ? text.split(password).join("<redacted>") : text)
    let lastError = ""
    const redis = options.client ?? (yield* Effect.acquireRelease(
      Effect.sync(() => {
        const client = new Redis(secret ?? "redis://127.0.0.1:6379", {
          // nothing is queued while disconnected, and a command lost with its connection fails
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          connectTimeout: Math.max(timeoutMillis, 1000),
          // the deadline of every admission
          commandTimeout: timeoutMillis,
          retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2000)
        })
        client.on("error", (error: unknown) => {
          lastError = scrub(describe(error))
        })
        return client
      }),
      (client) => Effect.sync(() => client.disconnect())
    ))
    const name = options.client === undefined
      ? nameOf(secret ?? "redis://127.0.0.1:6379")
      : `redis://${redis.options.host ?? "127.0.0.1"}:${redis.options.port ?? 6379}/${redis.options.db ?? 0}`
    if (redis.status !== "ready") {
      // give the first connection the admission deadline; later admissions never wait for it
      yield* Effect.async<void>((resume) => {
        const ready = () => resume(Effect.void)
        redis.once("ready", ready)
        return Effect.sync(() => redis.off("ready", ready))
      }).pipe(Effect.timeoutOption(Duration.millis(timeoutMillis)))
    }

    const token = randomBytes(8).toString("hex")
    let counter = 0
    const keysOf = (buckets: ReadonlyArray<RateBudget.Bucket>) =>
      buckets.flatMap((bucket) => {
        const base = `${prefix}:budget:${bucket.key}`
        return [`${base}:log`, `${base}:limit`, `${base}:block`, `${base}:spread`]
      })
    const argsOf = (
      buckets: ReadonlyArray<RateBudget.Bucket>,
      mode: "take" | "observe",
      observation: RateBudget.Observation | undefined
    ): Array<string | number> => [
      buckets.length,
      `${token}:${++counter}`,
      mode,
      observation === undefined ? -1 : Math.max(0, Math.floor(observation.used)),
      observation === undefined ? 0 : Math.max(0, Math.floor(observation.limit)),
      observation === undefined ? 0 : Math.max(0, Math.floor(observation.ageMillis)),
      observation === undefined ? 0 : Math.max(0, Math.floor(observation.resetInMillis)),
      observation === undefined ? 0 : Math.max(0, Math.floor(observation.blockMillis)),
      ...buckets.flatMap((bucket) => [bucket.limit, Math.ceil(bucket.windowMillis)])
    ]
    const evaluate = async (keys: ReadonlyArray<string>, args: ReadonlyArray<string | number>): Promise<unknown> => {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args)
      } catch (error) {
        if (!describe(error).startsWith("NOSCRIPT")) throw error
        return await redis.eval(script, keys.length, ...keys, ...args)
      }
    }
    const failure = (message: string) => RateBudget.unavailable(name, message)
    const failed = (error: unknown) => {
      const message = describe(error)
      return failure(message === "Command timed out" ? `no answer within ${timeoutMillis} ms` : scrub(message))
    }
    const waitOf = (reply: unknown): number | undefined => {
      const wait: unknown = Array.isArray(reply) ? reply[0] : undefined
      return typeof wait === "number" && Number.isFinite(wait) && wait >= 0 ? wait : undefined
    }
    /**
     * One script call, resumed once with its decoded answer (a single asynchronous step). The
     * deadline is the driver's per-command timeout (no timer fiber per admission), or ours
     * around a client you passed, which may have none.
     */
    const run = (
      buckets: ReadonlyArray<RateBudget.Bucket>,
      mode: "take" | "observe",
      observation: RateBudget.Observation | undefined
    ): Effect.Effect<number, FeeShareError.BudgetUnavailable> => {
      const evaluated = Effect.async<number, FeeShareError.BudgetUnavailable>((resume) => {
        if (redis.status !== "ready") {
          resume(Effect.fail(failure(`not connected (${redis.status}${lastError === "" ? "" : `: ${lastError}`})`)))
          return
        }
        evaluate(keysOf(buckets), argsOf(buckets, mode, observation)).then(
          (reply) => {
            const wait = waitOf(reply)
            resume(
              wait === undefined
                ? Effect.fail(failure("the script answered something unexpected"))
                : Effect.succeed(wait)
            )
          },
          (error: unknown) => resume(Effect.fail(failed(error)))
        )
      })
      return options.client === undefined ? evaluated : Effect.timeoutFail(evaluated, {
        duration: Duration.millis(timeoutMillis),
        onTimeout: () => failure(`no answer within ${timeoutMillis} ms`)
      })
    }

    const shared: RateBudget.Store = {
      name,
      shared: true,
      take: (buckets, observation) => run(buckets, "take", observation),
      observe: (buckets, observation) => Effect.asVoid(run(buckets, "observe", observation))
    }
    if ((options.onUnavailable ?? defaults.onUnavailable) === "fail") return shared

    // "local": this process's memory while Redis cannot answer, Redis again after retryAfter
    const local = RateBudget.memoryStore()
    let localUntil = 0
    let degraded = false
    const fallback = <A>(
      viaRedis: Effect.Effect<A, FeeShareError.BudgetUnavailable>,
      viaMemory: Effect.Effect<A, FeeShareError.BudgetUnavailable>
    ): Effect.Effect<A, FeeShareError.BudgetUnavailable> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (now < localUntil) return viaMemory
        return viaRedis.pipe(
          Effect.tap(() => {
            if (!degraded) return Effect.void
            degraded = false
            return Effect.logInfo(`rate budget: ${name} answers again; the fleet shares one budget again`)
          }),
          Effect.catchAll((error) => {
            localUntil = now + retryAfterMillis
            const warn = degraded ? Effect.void : Effect.logWarning(
              `rate budget: ${name} is unavailable (${error.message}); counting in this process only ` +
                "until it answers: processes sharing the account may together exceed its limit"
            )
            degraded = true
            return Effect.zipRight(warn, viaMemory)
          })
        )
      })
    return {
      name,
      shared: true,
      take: (buckets, observation) => fallback(shared.take(buckets, observation), local.take(buckets, observation)),
      observe: (buckets, observation) =>
        fallback(shared.observe(buckets, observation), local.observe(buckets, observation))
    }
  })

/**
 * The store from the environment: `FEESHARE_REDIS_URL` (read as `Redacted`; absent or empty:
 * an in-memory store, each process on its own) and `FEESHARE_REDIS_PREFIX` (optional); the
 * other options as given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeConfig = (
  options: Omit<Options, "url" | "client"> = {}
): Effect.Effect<RateBudget.Store, ConfigError, Scope.Scope> =>
  Effect.gen(function*() {
    const url = yield* Config.option(Config.redacted("FEESHARE_REDIS_URL"))
    const prefix = yield* Config.option(Config.string("FEESHARE_REDIS_PREFIX"))
    if (Option.isNone(url) || Redacted.value(url.value).trim() === "") return RateBudget.memoryStore()
    return yield* make({ ...options, url: url.value, prefix: options.prefix ?? Option.getOrUndefined(prefix) })
  })
