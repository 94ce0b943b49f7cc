/**
 * Per-call settings of the Effect client, through the context of the calls they wrap: a
 * time limit, a number of attempts and a rate-limit wait that override the client's for
 * those calls (`withCallOptions`), and the answer behind a call's value (`withResponse`).
 * Logging goes through the fiber's own `Logger` and minimum log level: at `Debug`, every
 * call logs its outcome inside a log span named after the operation, annotated with the
 * operation, method, status and failure (never a header, so never the API key).
 *
 * @example
 * ```ts
 * import { CallOptions, FeeShareClient } from "@feeshare/client"
 * import { Effect, Logger, LogLevel } from "effect"
 *
 * Effect.gen(function*() {
 *   const client = yield* FeeShareClient.FeeShareClient
 *   const { data, status, rateLimit } = yield* client.analytics.pools().pipe(
 *     CallOptions.withResponse,
 *     CallOptions.withCallOptions({ timeout: "5 seconds", retry: { maxAttempts: 1 } })
 *   )
 * }).pipe(Logger.withMinimumLogLevel(LogLevel.Debug))
 * ```
 *
 * @since 0.1.0
 */
import type { FeeShareError, RateLimit } from "@feeshare/domain"
import { Duration, Effect, Layer } from "effect"
import * as Call from "./internal/call.js"
import * as Validate from "./internal/validate.js"

/**
 * Overrides of the client's settings for the calls they wrap; absent fields keep the
 * client's. The rules are those of `FeeShareClient.Options`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Per-request time limit of every attempt. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Attempts per call, the first one included (1 turns retries off). */
  readonly retry?: { readonly maxAttempts?: number | undefined } | undefined
  /** The most a call waits in total for rate limits before failing with `RateLimited`. */
  readonly maxRateLimitWait?: Duration.DurationInput | undefined
}

const operation = "CallOptions.withCallOptions"

/** Validates `options` (an `InvalidRequest` names the field and the rule; nothing runs). */
const resolve = (options: Options): Effect.Effect<Call.Overrides, FeeShareError.InvalidRequest> =>
  Effect.gen(function*() {
    const timeoutMillis = options.timeout === undefined
      ? undefined
      : yield* Validate.positiveMillis(operation, "timeout", options.timeout, Duration.zero)
    const maxRateLimitWaitMillis = options.maxRateLimitWait === undefined
      ? undefined
      : yield* Validate.nonNegativeMillis(operation, "maxRateLimitWait", options.maxRateLimitWait, Duration.zero)
    const maxAttempts = options.retry?.maxAttempts
    if (maxAttempts !== undefined && !Validate.isPositiveInt(maxAttempts)) {
      return yield* Validate.invalid(operation, "retry.maxAttempts", Validate.maxAttemptsRule)
    }
    return { timeoutMillis, maxAttempts, maxRateLimitWaitMillis }
  })

/**
 * Runs `self` with `options` overriding the client's settings for every call it makes.
 *
 * @since 0.1.0
 * @category combinators
 */
export const withCallOptions =
  (options: Options) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | FeeShareError.InvalidRequest, R> =>
    Effect.flatMap(resolve(options), (overrides) => Effect.provideService(self, Call.CurrentOverrides, overrides))

/**
 * The overrides in force for the calls in scope (a `Context.Reference`; absent, the
 * client's own settings apply).
 *
 * @since 0.1.0
 * @category tags
 */
export const CurrentOverrides = Call.CurrentOverrides

/**
 * `options` for every call of the program it is provided to, as a layer; a call's own
 * `withCallOptions` inside that program wins.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<Call.CurrentOverrides, FeeShareError.InvalidRequest> =>
  Layer.effect(Call.CurrentOverrides, resolve(options))

/**
 * A value with the answer it came in: the HTTP status, the response headers and the
 * rate-limit snapshot they carry.
 *
 * @since 0.1.0
 * @category models
 */
export interface Response<A> {
  readonly data: A
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly rateLimit: RateLimit.RateLimitInfo | undefined
}

/**
 * Runs `self` and gives its value with the latest answer of the service it received (for
 * one operation, that operation's answer). `self` must call an operation: without any
 * answer, it dies.
 *
 * @since 0.1.0
 * @category combinators
 */
export const withResponse = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<Response<A>, E, R> =>
  Effect.suspend(() => {
    const sink: Call.Sink = { answer: undefined }
    return Effect.flatMap(Effect.provideService(self, Call.CurrentSink, sink), (data) => {
      const answer = sink.answer
      return answer === undefined
        ? Effect.dieMessage("CallOptions.withResponse: the effect received no answer from the service")
        : Effect.succeed({ data, status: answer.status, headers: answer.headers, rateLimit: answer.rateLimit })
    })
  })
