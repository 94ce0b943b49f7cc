/**
 * One attempt: one request and its response under the per-request deadline, on the caller's
 * fiber, with the call's span as the parent span.
 */
import { FetchHttpClient, type HttpClientRequest } from "@effect/platform"
import { FeeShareError } from "@feeshare/domain"
import { Cause, Context, Effect, Either, Exit, Scope, Tracer } from "effect"
import * as Exchange from "./exchange.js"
import type { Operation } from "./operations.js"
import type { Decoder, Hint } from "./response.js"
import type { Settings } from "./settings.js"

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
  const timeout = (op: Operation) =>
    new FeeShareError.Timeout({
      status: 0,
      message: `no response within ${settings.timeoutMillis} ms`,
      operation: op.operation
    })

  return (op, request, span, hint) =>
    Effect.flatMap(Scope.make(), (scope) =>
      Effect.contextWithEffect((context: Context.Context<never>) => {
        const close = Scope.close(scope, Exit.void)
        const deadline = settings.watchdog.start(close)
        const exchange = Exchange.run(settings.http, request, settings.limits, op.operation)
        return Effect.uninterruptibleMask((restore) =>
          Effect.matchCauseEffect(restore(exchange), {
            onFailure: (cause) => {
              deadline.done()
              const failure = Cause.failureOrCause(cause)
              const result = Either.isLeft(failure)
                ? Effect.fail(
                  deadline.timedOut
                    ? timeout(op)
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
              return restore(decoder.receive(op, response, text, span, hint))
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
      }))
}
