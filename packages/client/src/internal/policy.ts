/**
 * The policy of a call between its attempts: waits for a spent window and the client-side
 * budget, retries of transient failures on the retry policy's backoff `Schedule`, 429s
 * retried after their reset or `Retry-After`, all within the caller's rate-limit wait budget.
 */
import type { HttpClientRequest } from "@effect/platform"
import { Api, FeeShareError, RateLimit } from "@feeshare/domain"
import type { Tracer } from "effect"
import { Clock, Duration, Effect, Either, Option, Schedule } from "effect"
import type * as RateBudget from "../RateBudget.js"
import * as RetryPolicy from "../RetryPolicy.js"
import type { Attempt } from "./attempt.js"
import * as Call from "./call.js"
import type { Operation } from "./operations.js"
import { type Decoder, type Hint, withRateLimit } from "./response.js"
import { type Budget, observationOf, type Settings, untrustedResetMillis } from "./settings.js"

const advice = `${Api.operationName("agentAuth", "callback")} is never retried: its nonce may already be used; ` +
  `start again from ${Api.operationName("agentAuth", "init")} (agentAuth.login does both)`

/** The policy side of one client. */
export interface Policy {
  /**
   * One admission by the budget's store (with the latest answer's counts, kept for the next
   * admission when the store fails): the wait it asks for, 0 when admitted.
   */
  readonly admit: (
    op: Operation,
    budget: Budget,
    buckets: ReadonlyArray<RateBudget.Bucket>,
    now: number
  ) => Effect.Effect<number, FeeShareError.BudgetUnavailable>
  /**
   * The slow path: waits for a spent window and the budget before each attempt, retries
   * transient failures with backoff and 429s after their reset. `first` is the failure of
   * an attempt already made by the fast path.
   */
  readonly loop: (
    op: Operation,
    request: HttpClientRequest.HttpClientRequest,
    span: Tracer.Span,
    first: FeeShareError.ApiFailure | undefined,
    hint: Hint
  ) => Effect.Effect<unknown, FeeShareError.FeeShareError>
}

/** The policy of one client, around its attempts. */
export const make = (settings: Settings, decoder: Decoder, attempt: Attempt): Policy => {
  const backoff = RetryPolicy.schedule(settings.retry).pipe(
    Schedule.tapOutput((delay) =>
      Effect.logDebug("retrying").pipe(Effect.annotateLogs({ delayMillis: Duration.toMillis(delay) }))
    )
  )

  const spent = (
    op: Operation,
    info: { readonly limit: number; readonly remaining: number; readonly resetAt: number },
    what: string,
    waitMillis: number,
    maxWaitMillis: number
  ) =>
    new FeeShareError.RateLimited({
      status: 0,
      message: `${what}; waiting ${Math.ceil(waitMillis / 1000)} s would exceed maxRateLimitWait ` +
        `(${Math.round(maxWaitMillis / 1000)} s); nothing was sent`,
      operation: op.operation,
      limit: info.limit,
      remaining: info.remaining,
      resetAt: info.resetAt
    })

  const advise = (error: FeeShareError.ApiFailure): FeeShareError.ApiFailure => {
    if (!RetryPolicy.isTransient(error) && error._tag !== "RateLimited") return error
    const fields = {
      status: error.status,
      message: `${error.message}. ${advice}`,
      operation: error.operation,
      ...withRateLimit(error.rateLimit)
    }
    switch (error._tag) {
      case "TransportError":
        return new FeeShareError.TransportError(fields)
      case "Timeout":
        return new FeeShareError.Timeout(fields)
      case "ServerError":
        return new FeeShareError.ServerError(fields)
      case "UnexpectedResponse":
        return new FeeShareError.UnexpectedResponse({ ...fields, body: error.body })
      case "RateLimited":
        return new FeeShareError.RateLimited({
          ...fields,
          limit: error.limit,
          remaining: error.remaining,
          resetAt: error.resetAt
        })
      default:
        return error
    }
  }

  /** A store's failure, named after the operation it held back. */
  const restamp = (op: Operation, error: FeeShareError.BudgetUnavailable) =>
    new FeeShareError.BudgetUnavailable({
      status: 0,
      message:
        `${op.operation}: the rate budget's store (${error.store}) is unavailable: ${error.message}; nothing was sent`,
      operation: op.operation,
      store: error.store
    })

  const admit: Policy["admit"] = (op, budget, buckets, now) => {
    const pending = budget.pending
    budget.pending = undefined
    return Effect.mapError(
      budget.store.take(buckets, pending === undefined ? undefined : observationOf(pending, now)),
      (error) => {
        if (budget.pending === undefined) budget.pending = pending
        return restamp(op, error)
      }
    )
  }

  /**
   * A 429 seen here makes every process sharing the budget wait until the reset (a wait
   * beyond any real window is not shared). Best effort: the store being down changes nothing
   * for this call, which waits anyway.
   */
  const shareBlock = (op: Operation, error: FeeShareError.RateLimited, waitMillis: number) => {
    if (Option.isNone(settings.budget) || waitMillis <= 0 || waitMillis > untrustedResetMillis) return Effect.void
    const budget = settings.budget.value
    // the block holds everyone back; the counts come with the next answer's headers
    return budget.buckets.pipe(
      Effect.flatMap((buckets) =>
        budget.store.observe(buckets, {
          used: 0,
          limit: error.limit,
          ageMillis: 0,
          resetInMillis: waitMillis,
          blockMillis: waitMillis
        })
      ),
      Effect.catchAll((failure) =>
        Effect.logWarning("rate budget: could not share a 429 with the other processes").pipe(
          Effect.annotateLogs({ operation: op.operation, reason: failure.message })
        )
      )
    )
  }

  const loop: Policy["loop"] = (op, request, span, first, hint) =>
    Effect.gen(function*() {
      let attempts = first === undefined ? 0 : 1
      let failure = first
      let waitedMillis = 0
      let waitedWindow = 0
      let retries: Schedule.ScheduleDriver<Duration.Duration, unknown> | undefined
      // the client's settings, or the call's overrides (`FeeShareClient.withCallOptions`)
      const { maxAttempts, maxRateLimitWaitMillis } = Call.effective(settings, yield* Call.CurrentOverrides)
      // not a Schedule: each turn's wait comes from the last answer (its reset, its
      // Retry-After, the budget's refill), and the waits of every kind share one allowance
      // (`maxRateLimitWaitMillis`); only the backoff between failed attempts is a fixed
      // policy, and it is one (`backoff`, driven here)
      while (true) {
        if (failure === undefined) {
          // the last answer said the window is spent: wait for its reset instead of a sure 429
          const known = yield* decoder.rateLimit
          if (Option.isSome(known) && known.value.remaining === 0) {
            const untilReset = known.value.resetAtMillis - (yield* Clock.currentTimeMillis)
            // a reset beyond any real window is not believed for longer than the caller's wait
            // budget: after it, the call is sent and its answer decides
            const wait = untilReset > untrustedResetMillis
              ? maxRateLimitWaitMillis - waitedMillis
              : untilReset
            if (wait > 0) {
              if (waitedMillis + wait > maxRateLimitWaitMillis) {
                return yield* spent(
                  op,
                  known.value,
                  `rate limit spent until ${known.value.resetAt}`,
                  wait,
                  maxRateLimitWaitMillis
                )
              }
              yield* Effect.logDebug("waiting for the rate-limit reset").pipe(
                Effect.annotateLogs({ operation: op.operation, waitMillis: wait })
              )
              yield* settings.onWait({ operation: op.operation, waitMillis: wait, reason: "rate_limit_reset" })
              yield* Effect.sleep(Duration.millis(wait))
              waitedMillis += wait
            }
          }
          if (Option.isSome(settings.budget)) {
            const budget = settings.budget.value
            const buckets = yield* budget.buckets
            // not a Schedule: the wait is what the budget answers each time (another process
            // may have spent what this one waited for)
            while (true) {
              const now = yield* Clock.currentTimeMillis
              const wait = yield* admit(op, budget, buckets, now)
              if (wait <= 0) break
              if (waitedMillis + wait > maxRateLimitWaitMillis) {
                return yield* spent(
                  op,
                  { limit: budget.limit, remaining: 0, resetAt: Math.ceil((now + wait) / 1000) },
                  "client-side budget spent",
                  wait,
                  maxRateLimitWaitMillis
                )
              }
              yield* settings.onWait({ operation: op.operation, waitMillis: wait, reason: "budget" })
              yield* Effect.sleep(Duration.millis(wait))
              waitedMillis += wait
            }
          }
          attempts++
          const result = yield* Effect.either(attempt(op, request, span, hint))
          if (attempts > 1) span.attribute("feeshare.attempts", attempts)
          if (Either.isRight(result)) return result.right
          failure = result.left
        }
        const error = failure
        failure = undefined
        if (!op.retried) return yield* Effect.fail(advise(error))
        const header = hint.retryAfter
        const asked = header === undefined
          ? undefined
          : Option.getOrUndefined(RateLimit.retryAfterMillis(header, yield* Clock.currentTimeMillis))
        if (asked !== undefined && (error._tag === "RateLimited" || RetryPolicy.isTransient(error))) {
          // the server said when to come back: then, or not at all within the wait budget
          if (attempts >= maxAttempts || waitedMillis + asked > maxRateLimitWaitMillis) {
            return yield* Effect.fail(error)
          }
          if (error._tag === "RateLimited") yield* shareBlock(op, error, asked)
          yield* Effect.logDebug("retry-after: waiting").pipe(
            Effect.annotateLogs({ operation: op.operation, status: error.status, waitMillis: asked })
          )
          yield* settings.onWait({ operation: op.operation, waitMillis: asked, reason: "retry_after" })
          yield* Effect.sleep(Duration.millis(asked))
          waitedMillis += asked
          continue
        }
        if (error._tag === "RateLimited" && error.status === 429 && error.resetAt > 0) {
          // wait for the reset at most once per window, within the caller's wait budget
          const wait = Math.max(0, error.resetAt * 1000 - (yield* Clock.currentTimeMillis))
          if (error.resetAt > waitedWindow && waitedMillis + wait <= maxRateLimitWaitMillis) {
            yield* Effect.logDebug("rate limited: waiting for the reset").pipe(
              Effect.annotateLogs({ operation: op.operation, waitMillis: wait, resetAt: error.resetAt })
            )
            waitedWindow = error.resetAt
            yield* shareBlock(op, error, wait)
            yield* settings.onWait({ operation: op.operation, waitMillis: wait, reason: "rate_limit_reset" })
            yield* Effect.sleep(Duration.millis(wait))
            waitedMillis += wait
            continue
          }
          return yield* Effect.fail(error)
        }
        // a 429 that does not say when the window resets is retried with backoff
        const unknownReset = error._tag === "RateLimited" && error.status === 429
        if (attempts < maxAttempts && (RetryPolicy.isTransient(error) || unknownReset)) {
          // the backoff schedule logs its delay and sleeps it
          retries ??= yield* Schedule.driver(backoff)
          yield* Effect.orDie(retries.next(error)).pipe(
            Effect.annotateLogs({
              operation: op.operation,
              attempt: attempts,
              failure: error._tag,
              status: error.status
            })
          )
          continue
        }
        return yield* Effect.fail(error)
      }
    })

  return { admit, loop }
}
