/**
 * One attempt: one request and its response under the per-request deadline, on the caller's
 * fiber, with the call's span as the parent span.
 */
import { FetchHttpClient, type HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { FeeShareError, RateLimit } from "@feeshare/domain"
import { Cause, Context, Effect, Either, Exit, Option, Scope, Tracer } from "effect"
import * as Call from "./call.js"
import * as Exchange from "./exchange.js"
import type { Operation } from "./operations.js"
import type { Decoder, Hint } from "./response.js"
import type { Settings } from "./settings.js"
import * as Watchdog from "./watchdog.js"

/** One attempt of a call: its answer decoded, or the failure it ended with. */
export type Attempt = (
  op: Operation,
  request: HttpClientRequest.HttpClientRequest,
  span: Tracer.Span,
  hint: Hint
) => Effect.Effect<unknown, FeeShareError.ApiFailure>

/**
 * The attempts of one client. The request's `AbortController` is tied to a scope of its own
 * (`HttpClient.withScope`): the watchdog closes it at the deadline (the request fails and the
 * attempt reports `Timeout`), and so does an interruption. A settled request leaves its scope
 * to the garbage collector: there is nothing left to abort.
 */
export const make = (settings: Settings, decoder: Decoder): Attempt => {
  const timeout = (op: Operation, timeoutMillis: number) =>
    new FeeShareError.Timeout({
      status: 0,
      message: `no response within ${timeoutMillis} ms`,
      operation: op.operation
    })

  /** Records a decoded answer for `withResponse`. */
  const record = (sink: Call.Sink, response: HttpClientResponse.HttpClientResponse) => {
    const headers = response.headers
    sink.answer = {
      status: response.status,
      headers: { ...headers },
      rateLimit: Option.getOrUndefined(RateLimit.fromHeaders(headers))
    }
  }

  const run = (
    op: Operation,
    request: HttpClientRequest.HttpClientRequest,
    span: Tracer.Span,
    hint: Hint,
    context: Context.Context<never>,
    scope: Scope.CloseableScope,
    close: Effect.Effect<void>,
    deadline: Watchdog.Deadline,
    timeoutMillis: number
  ) => {
    const exchange = Exchange.run(settings.http, request, settings.limits, op.operation)
    return Effect.uninterruptibleMask((restore) =>
      Effect.matchCauseEffect(restore(exchange), {
        onFailure: (cause) => {
          deadline.done()
          const failure = Cause.failureOrCause(cause)
          const result = Either.isLeft(failure)
            ? Effect.fail(
              deadline.timedOut
                ? timeout(op, timeoutMillis)
                : failure.left._tag === "UnexpectedResponse"
                ? failure.left
                : decoder.transportError(op, failure.left)
            )
            : Effect.failCause(failure.right)
          // cancel the request on the wire: an interruption, or a body left unread
          return Effect.zipRight(close, result)
        },
        onSuccess: ({ response, text }) => {
          deadline.done()
          hint.status = response.status
          const received = restore(decoder.receive(op, response, text, span, hint))
          const sink = Context.get(context, Call.CurrentSink)
          return sink === undefined ? received : Effect.tap(received, () => record(sink, response))
        }
      })
    ).pipe(
      // one context change for all: the call's span as parent, the request's scope, the fetch options
      Effect.provide(
        Context.add(
          Context.add(Context.add(context, Tracer.ParentSpan, span), Scope.Scope, scope),
          FetchHttpClient.RequestInit,
          settings.requestInit
        )
      )
    )
  }

  return (op, request, span, hint) =>
    Effect.flatMap(Scope.make(), (scope) =>
      Effect.contextWithEffect((context: Context.Context<never>) => {
        const close = Scope.close(scope, Exit.void)
        const overrides = Context.get(context, Call.CurrentOverrides)
        const limit = overrides?.timeoutMillis
        return limit === undefined || limit === settings.timeoutMillis
          ? run(op, request, span, hint, context, scope, close, settings.watchdog.start(close), settings.timeoutMillis)
          : Effect.flatMap(
            Watchdog.single(close, limit),
            (deadline) => run(op, request, span, hint, context, scope, close, deadline, limit)
          )
      }))
}
