/**
 * The executor of one client: assembles the operation table, response decoding, one attempt
 * and the policy into the function each client method calls. The common case (window not
 * spent, the budget admits at once) makes its first attempt without the policy's loop.
 */
import type { HttpClientRequest } from "@effect/platform"
import type { FeeShareError } from "@feeshare/domain"
import type { Tracer } from "effect"
import { Clock, Effect, Either, FiberRef, LogLevel, Option } from "effect"
import * as Attempt from "./attempt.js"
import * as Operations from "./operations.js"
import * as Policy from "./policy.js"
import * as Response from "./response.js"
import type { Settings } from "./settings.js"

/** Builds the function that runs one operation with validation, limits and retries. */
export const make = (settings: Settings) => {
  const decoder = Response.make(settings)
  const attempt = Attempt.make(settings, decoder)
  const policy = Policy.make(settings, decoder, attempt)

  /**
   * Sends `request`, honouring the rate-limit state, the budget and the retry policy. The
   * common case makes its first attempt without the loop.
   */
  const send = (
    op: Operations.Operation,
    request: HttpClientRequest.HttpClientRequest,
    span: Tracer.Span,
    hint: Response.Hint
  ): Effect.Effect<unknown, FeeShareError.FeeShareError> =>
    Effect.flatMap(decoder.rateLimit, (known) => {
      if (Option.isSome(known) && known.value.remaining === 0) {
        return Effect.withParentSpan(policy.loop(op, request, span, undefined, hint), span)
      }
      const first = Effect.catchAll(
        attempt(op, request, span, hint),
        (error) => Effect.withParentSpan(policy.loop(op, request, span, error, hint), span)
      )
      if (Option.isNone(settings.budget)) return first
      // one admission, then the attempt; a wait (or anything after) goes through the loop
      const budget = settings.budget.value
      return Effect.flatMap(budget.buckets, (buckets) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.flatMap(policy.admit(op, budget, buckets, now), (wait) =>
            wait <= 0 ? first : Effect.withParentSpan(policy.loop(op, request, span, undefined, hint), span))))
    })

  /**
   * The function a client method calls: validate, build the request, send it inside the
   * call's span. The span records no stack trace (it would point here, not at the caller),
   * and the attempts set its attributes directly. With the fiber's minimum log level at
   * `Debug`, the call also logs its outcome inside a log span named after the operation,
   * annotated with the operation and method (never a header, so never the key).
   */
  return (op: Operations.Operation) => {
    const spanOptions: Tracer.SpanOptions = {
      kind: "client",
      captureStackTrace: false,
      attributes: { "feeshare.operation": op.operation, "http.request.method": op.method }
    }
    const base = Operations.baseRequest(op)
    const annotations = { operation: op.operation, method: op.method }
    return (input?: unknown): Effect.Effect<unknown, FeeShareError.FeeShareError> => {
      const request = Operations.request(op, base, input)
      if (Either.isLeft(request)) return Effect.fail(decoder.scrubInvalid(request.left))
      const hint: Response.Hint = { retryAfter: undefined, status: 0 }
      const call = Effect.useSpan(op.operation, spanOptions, (span) => send(op, request.right, span, hint))
      return Effect.withFiberRuntime((fiber) =>
        LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Debug)
          ? call
          : call.pipe(
            Effect.tapBoth({
              onSuccess: () => Effect.logDebug("answered").pipe(Effect.annotateLogs({ status: hint.status })),
              onFailure: (error) =>
                Effect.logDebug("failed").pipe(
                  Effect.annotateLogs({
                    failure: error._tag,
                    status: "status" in error ? error.status : 0,
                    message: error.message
                  })
                )
            }),
            Effect.annotateLogs(annotations),
            Effect.withLogSpan(op.operation)
          )
      )
    }
  }
}
