import type { Headers, HttpClient, HttpClientError, HttpClientResponse, HttpMethod } from "@effect/platform"
import { FetchHttpClient, HttpClientRequest } from "@effect/platform"
import { Api, Envelope, FeeShareError, RateLimit, Validation } from "@feeshare/domain"
import type { Schema } from "effect"
import {
  Cause,
  Clock,
  Context,
  Duration,
  Effect,
  Either,
  Exit,
  Option,
  Random,
  Redacted,
  Scope,
  SubscriptionRef,
  Tracer
} from "effect"
import type * as RateBudget from "../RateBudget.js"
import * as RetryPolicy from "../RetryPolicy.js"
import * as Exchange from "./exchange.js"
import * as SecretScrubber from "./secretScrubber.js"
import type { Watchdog } from "./watchdog.js"

/** Everything an operation needs from its client, resolved once by `make`. */
export interface Settings {
  /** The transport, each request's `AbortController` tied to the `Scope` provided to it. */
  readonly http: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope>
  /** `{base_url}` without a trailing slash. */
  readonly baseUrl: string
  /** `{root_url}`: `{base_url}` without its trailing `Api.basePath`. */
  readonly rootUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly timeoutMillis: number
  /** Enforces `timeoutMillis` on every attempt. */
  readonly watchdog: Watchdog
  readonly retry: RetryPolicy.Policy
  readonly maxRateLimitWaitMillis: number
  readonly budget: Option.Option<Budget>
  readonly rateLimit: SubscriptionRef.SubscriptionRef<Option.Option<RateLimit.RateLimitInfo>>
  /** Redirect hops and body size allowed per request. */
  readonly limits: Exchange.Limits
  /**
   * The fetch options every request runs with (the caller's own, if any, plus the redirect
   * mode: `manual` where a redirect's Location can be read, `error` elsewhere).
   */
  readonly requestInit: globalThis.RequestInit
  /** Told before every rate-limit wait (a spent window, the budget, a 429, a Retry-After). */
  readonly onWait: (wait: RateLimitWait) => Effect.Effect<void>
}

/** The client-side budget of a client, resolved by `make`. */
export interface Budget {
  readonly store: RateBudget.Store
  /** The configured limit (reported by a `RateLimited` the budget causes). */
  readonly limit: number
  /** The buckets every call counts against (the account is resolved once, on first use). */
  buckets: Effect.Effect<ReadonlyArray<RateBudget.Bucket>, FeeShareError.FeeShareError>
  /** The counts of the latest answer, not yet given to the store: they go with the next admission. */
  pending: Pending | undefined
}

/** An answer's counts, kept for the next admission. */
export interface Pending {
  readonly used: number
  readonly limit: number
  /** The local time of the answer, and of the service's reset (both on this process's clock). */
  readonly receivedAt: number
  readonly resetAtMillis: number
}

/** The observation of an answer received `now - receivedAt` ago. */
export const observationOf = (pending: Pending, now: number): RateBudget.Observation => ({
  used: pending.used,
  limit: pending.limit,
  ageMillis: Math.max(0, now - pending.receivedAt),
  resetInMillis: Math.max(0, Math.min(untrustedResetMillis, pending.resetAtMillis - pending.receivedAt)),
  blockMillis: 0
})

/**
 * A wait the client is about to make before sending again.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimitWait {
  readonly operation: string
  readonly waitMillis: number
  readonly reason: "rate_limit_reset" | "budget" | "retry_after"
}

/**
 * A rate-limit reset further ahead than this is not believed: the service's window is one
 * hour, so such a reset comes from a broken or hostile answer. The next call waits the
 * caller's wait budget at most, then is sent, and its answer decides.
 */
export const untrustedResetMillis = 2 * 60 * 60 * 1000

/** What the latest answer of a call said beyond its failure: its `Retry-After` (429 and 503). */
interface Hint {
  retryAfter: string | ReadonlyArray<string> | undefined
}

type Encode = (input: unknown) => Either.Either<unknown, FeeShareError.InvalidRequest>

/** One endpoint of the `HttpApi`, read once and ready to run. */
export interface Operation {
  readonly group: string
  readonly endpoint: string
  /** `group.endpoint`, as in errors and spans. */
  readonly operation: string
  readonly method: HttpMethod.HttpMethod
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** `false` for operations that must never be repeated automatically. */
  readonly retried: boolean
  readonly urlParams: Encode | undefined
  readonly payload: Encode | undefined
  readonly success: Schema.Schema.AnyNoContext
}

/** What the executor reads from an endpoint of the `HttpApi`. */
interface EndpointView {
  readonly name: string
  readonly path: string
  readonly method: HttpMethod.HttpMethod
  readonly urlParamsSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly payloadSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly successSchema: Schema.Schema.AnyNoContext
}

/**
 * The operations that are never sent twice: the agent-auth callback consumes its nonce and
 * creates a key.
 */
export const notRetried: ReadonlySet<string> = new Set([Api.operationName("agentAuth", "callback")])

const advice = `${Api.operationName("agentAuth", "callback")} is never retried: its nonce may already be used; ` +
  `start again from ${Api.operationName("agentAuth", "init")} (agentAuth.login does both)`

const trimSlashes = (url: string): string => url.replace(/\/+$/, "")

/** `{base_url}` and `{root_url}` from the configured base URL. */
export const urls = (baseUrl: string): { readonly baseUrl: string; readonly rootUrl: string } => {
  const base = trimSlashes(baseUrl)
  return { baseUrl: base, rootUrl: base.endsWith(Api.basePath) ? base.slice(0, -Api.basePath.length) : base }
}

const encoder = (
  schema: Option.Option<Schema.Schema.AnyNoContext>,
  operation: string
): Encode | undefined => {
  if (Option.isNone(schema)) return undefined
  const encode = Validation.encodeRequest(schema.value, operation)
  return (input) => encode(input)
}

/** Reads every endpoint of `Api.Api` into an `Operation`. */
export const operations = (settings: Settings): ReadonlyArray<Operation> => {
  const out: Array<Operation> = []
  for (const group of Object.values(Api.Api.groups)) {
    const underBase = Api.isUnderBaseUrl(group.identifier)
    // ping reads the caller's own rate limit, so it carries the key like the guarded groups
    const sendsKey = Array.from(group.middlewares).some((tag) => tag.key === Api.ApiKey.key) || !underBase
    const headers: Record<string, string> = Option.isSome(settings.apiKey) && sendsKey
      ? { [Api.apiKeyHeader]: Redacted.value(settings.apiKey.value) }
      : {}
    const endpoints: ReadonlyArray<EndpointView> = Object.values(group.endpoints)
    for (const endpoint of endpoints) {
      const operation = Api.operationName(group.identifier, endpoint.name)
      const path = underBase && endpoint.path.startsWith(Api.basePath)
        ? `${settings.baseUrl}${endpoint.path.slice(Api.basePath.length)}`
        : `${settings.rootUrl}${endpoint.path}`
      out.push({
        group: group.identifier,
        endpoint: endpoint.name,
        operation,
        method: endpoint.method,
        url: path,
        headers,
        retried: !notRetried.has(operation),
        urlParams: encoder(endpoint.urlParamsSchema, operation),
        payload: encoder(endpoint.payloadSchema, operation),
        success: endpoint.successSchema
      })
    }
  }
  return out
}


const describeCause = (cause: unknown): string => {
  const parts: Array<string> = []
  let current: unknown = cause
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    if ("message" in current && typeof current.message === "string" && current.message !== "") {
      parts.push(current.message)
    }
    current = "cause" in current ? current.cause : undefined
  }
  return parts.join(": ")
}

const isJsonMediaType = (contentType: string): boolean => {
  if (contentType === "application/json" || contentType.startsWith("application/json;")) return true
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase()
  return mediaType === "application/json" || mediaType.endsWith("+json")
}

/** Whether two snapshots say the same (instances are compared by value, without hashing). */
const sameLimits = (a: RateLimit.RateLimitInfo, b: RateLimit.RateLimitInfo): boolean =>
  a === b || (a.limit === b.limit && a.remaining === b.remaining && a.resetAt === b.resetAt)

const withRateLimit = (info: RateLimit.RateLimitInfo | undefined) => info === undefined ? {} : { rateLimit: info }

/** Builds the function that runs one operation with validation, limits and retries. */
export const make = (settings: Settings) => {
  const secret = SecretScrubber.make(Option.map(settings.apiKey, Redacted.value))
  const scrub = (text: string): string => (secret.appearsIn(text) ? secret.scrub(text) : text)

  /** A rule message may quote the offending value: never let it quote the key. */
  const scrubInvalid = (error: FeeShareError.InvalidRequest): FeeShareError.InvalidRequest =>
    secret.appearsIn(error.rule) || secret.appearsIn(error.message)
      ? new FeeShareError.InvalidRequest({
        operation: error.operation,
        field: error.field,
        rule: scrub(error.rule),
        message: scrub(error.message)
      })
      : error

  const decodeBody = (
    op: Operation,
    headers: Headers.Headers,
    text: string,
    context: Envelope.ResponseContext
  ): Either.Either<unknown, FeeShareError.ApiFailure> => {
    const contentType = headers["content-type"]
    if (contentType !== undefined && !isJsonMediaType(contentType)) {
      return Either.left(
        new FeeShareError.UnexpectedResponse({
          status: context.status,
          message: `expected a JSON response, got content type ${contentType} (status ${context.status})`,
          operation: op.operation,
          body: scrub(text).slice(0, Envelope.bodyPreviewLength),
          ...withRateLimit(context.rateLimit)
        })
      )
    }
    const decoded = Envelope.decode(op.success, text, context)
    // a server that echoes the key back must not put it into an error
    return Either.isLeft(decoded) && secret.appearsIn(text)
      ? Envelope.decode(op.success, scrub(text), context)
      : decoded
  }

  const readRateLimit = SubscriptionRef.get(settings.rateLimit)

  /** Publishes a new rate-limit snapshot; an identical one changes nothing. */
  const publish = (snapshot: RateLimit.RateLimitInfo) =>
    Effect.flatMap(
      readRateLimit,
      (current) =>
        Option.isSome(current) && sameLimits(current.value, snapshot)
          ? Effect.void
          : SubscriptionRef.set(settings.rateLimit, Option.some(snapshot))
    )

  /**
   * The rate-limit headers of a response, read by `RateLimit.fromHeaders`; the same three
   * header values as the previous response give the same snapshot without reading them again.
   */
  let lastLimitHeaders: readonly [string, string, string] | undefined
  let lastLimitInfo: Option.Option<RateLimit.RateLimitInfo> = Option.none()
  const rateLimitOf = (headers: Headers.Headers) => {
    const limit = headers[RateLimit.headerNames.limit]
    const remaining = headers[RateLimit.headerNames.remaining]
    const reset = headers[RateLimit.headerNames.reset]
    if (limit === undefined || remaining === undefined || reset === undefined) return RateLimit.fromHeaders(headers)
    const last = lastLimitHeaders
    if (last !== undefined && last[0] === limit && last[1] === remaining && last[2] === reset) return lastLimitInfo
    const info = RateLimit.fromHeaders(headers)
    lastLimitHeaders = [limit, remaining, reset]
    lastLimitInfo = info
    return info
  }

  const receive = (
    op: Operation,
    response: HttpClientResponse.HttpClientResponse,
    text: string,
    span: Tracer.Span,
    hint: Hint
  ): Effect.Effect<unknown, FeeShareError.ApiFailure> => {
    // some transports compute `headers` on every access: read it once
    const headers = response.headers
    const status = response.status
    const info = rateLimitOf(headers)
    const result = decodeBody(op, headers, text, {
      status,
      operation: op.operation,
      rateLimit: Option.getOrUndefined(info)
    })
    hint.retryAfter = Either.isLeft(result) && (status === 429 || status === 503) ? headers["retry-after"] : undefined
    const snapshot = Option.isSome(info)
      ? info.value
      : Either.isLeft(result) && result.left._tag === "RateLimited" && result.left.resetAt > 0
      ? new RateLimit.RateLimitInfo({
        limit: result.left.limit,
        remaining: result.left.remaining,
        resetAt: result.left.resetAt
      }, { disableValidation: true })
      : undefined
    span.attribute("http.response.status_code", status)
    if (snapshot === undefined) return result
    span.attribute("feeshare.rate_limit.remaining", snapshot.remaining)
    if (Option.isSome(settings.budget)) {
      const budget = settings.budget.value
      // the service's count corrects the shared budget, with this process's next admission
      return Effect.zipRight(
        Effect.zipRight(
          Clock.currentTimeMillis.pipe(Effect.map((receivedAt) => {
            budget.pending = {
              used: snapshot.limit - snapshot.remaining,
              limit: snapshot.limit,
              receivedAt,
              resetAtMillis: snapshot.resetAtMillis
            }
          })),
          publish(snapshot)
        ),
        result
      )
    }
    return Effect.zipRight(publish(snapshot), result)
  }

  const transportError = (op: Operation, error: HttpClientError.HttpClientError) =>
    error._tag === "RequestError"
      ? new FeeShareError.TransportError({
        status: 0,
        message: scrub(`request failed (${error.reason}): ${describeCause(error.cause) || error.message}`),
        operation: op.operation
      })
      : new FeeShareError.TransportError({
        status: error.response.status,
        message: scrub(`reading the response failed: ${describeCause(error.cause) || error.message}`),
        operation: op.operation
      })

  const timeout = (op: Operation) =>
    new FeeShareError.Timeout({
      status: 0,
      message: `no response within ${settings.timeoutMillis} ms`,
      operation: op.operation
    })

  /**
   * One request and its response, on the caller's fiber, with the call's span as the parent
   * span. The request's `AbortController` is tied to a scope of its own
   * (`HttpClient.withScope`): the watchdog closes it at the deadline (the request fails and
   * the attempt reports `Timeout`), and so does an interruption. A settled request leaves
   * its scope to the garbage collector: there is nothing left to abort.
   */
  const attempt = (
    op: Operation,
    request: HttpClientRequest.HttpClientRequest,
    span: Tracer.Span,
    hint: Hint
  ): Effect.Effect<unknown, FeeShareError.ApiFailure> =>
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
                    : transportError(op, failure.left)
                )
                : Effect.failCause(failure.right)
              // cancel the request on the wire: an interruption, or a body left unread
              return Effect.zipRight(close, result)
            },
            onSuccess: ({ response, text }) => {
              deadline.done()
              return restore(receive(op, response, text, span, hint))
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

  const spent = (
    op: Operation,
    info: { readonly limit: number; readonly remaining: number; readonly resetAt: number },
    what: string,
    waitMillis: number
  ) =>
    new FeeShareError.RateLimited({
      status: 0,
      message: `${what}; waiting ${Math.ceil(waitMillis / 1000)} s would exceed maxRateLimitWait ` +
        `(${Math.round(settings.maxRateLimitWaitMillis / 1000)} s); nothing was sent`,
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

  /**
   * One admission: the store decides, with the latest answer's counts (kept for the next
   * admission when the store fails).
   */
  const admit = (
    op: Operation,
    budget: Budget,
    buckets: ReadonlyArray<RateBudget.Bucket>,
    now: number
  ): Effect.Effect<number, FeeShareError.BudgetUnavailable> => {
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

  /** A store's failure, named after the operation it held back. */
  const restamp = (op: Operation, error: FeeShareError.BudgetUnavailable) =>
    new FeeShareError.BudgetUnavailable({
      status: 0,
      message: `${op.operation}: the rate budget's store (${error.store}) is unavailable: ${error.message}; nothing was sent`,
      operation: op.operation,
      store: error.store
    })

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

  /**
   * The slow path: waits for a spent window and the budget before each attempt, retries
   * transient failures with backoff and 429s after their reset. `first` is the failure of
   * an attempt already made by the fast path.
   */
  const loop = (
    op: Operation,
    request: HttpClientRequest.HttpClientRequest,
    span: Tracer.Span,
    first: FeeShareError.ApiFailure | undefined,
    hint: Hint
  ): Effect.Effect<unknown, FeeShareError.FeeShareError> =>
    Effect.gen(function*() {
      let attempts = first === undefined ? 0 : 1
      let failure = first
      let waitedMillis = 0
      let waitedWindow = 0
      while (true) {
        if (failure === undefined) {
          // the last answer said the window is spent: wait for its reset instead of a sure 429
          const known = yield* readRateLimit
          if (Option.isSome(known) && known.value.remaining === 0) {
            const untilReset = known.value.resetAtMillis - (yield* Clock.currentTimeMillis)
            // a reset beyond any real window is not believed for longer than the caller's wait
            // budget: after it, the call is sent and its answer decides
            const wait = untilReset > untrustedResetMillis
              ? settings.maxRateLimitWaitMillis - waitedMillis
              : untilReset
            if (wait > 0) {
              if (waitedMillis + wait > settings.maxRateLimitWaitMillis) {
                return yield* spent(op, known.value, `rate limit spent until ${known.value.resetAt}`, wait)
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
            while (true) {
              const now = yield* Clock.currentTimeMillis
              const wait = yield* admit(op, budget, buckets, now)
              if (wait <= 0) break
              if (waitedMillis + wait > settings.maxRateLimitWaitMillis) {
                return yield* spent(
                  op,
                  { limit: budget.limit, remaining: 0, resetAt: Math.ceil((now + wait) / 1000) },
                  "client-side budget spent",
                  wait
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
          if (attempts >= settings.retry.maxAttempts || waitedMillis + asked > settings.maxRateLimitWaitMillis) {
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
          if (error.resetAt > waitedWindow && waitedMillis + wait <= settings.maxRateLimitWaitMillis) {
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
        if (attempts < settings.retry.maxAttempts && (RetryPolicy.isTransient(error) || unknownReset)) {
          const delay = RetryPolicy.delayMillis(settings.retry, attempts, yield* Random.next)
          yield* Effect.logDebug("retrying").pipe(
            Effect.annotateLogs({
              operation: op.operation,
              attempt: attempts,
              failure: error._tag,
              status: error.status,
              delayMillis: delay
            })
          )
          yield* Effect.sleep(Duration.millis(delay))
          continue
        }
        return yield* Effect.fail(error)
      }
    })

  /**
   * Sends `request`, honouring the rate-limit state, the budget and the retry policy. The
   * common case (window not spent, the budget admits at once) makes its first attempt
   * without the loop.
   */
  const send = (
    op: Operation,
    request: HttpClientRequest.HttpClientRequest,
    span: Tracer.Span
  ): Effect.Effect<unknown, FeeShareError.FeeShareError> =>
    Effect.flatMap(readRateLimit, (known) => {
      const hint: Hint = { retryAfter: undefined }
      if (Option.isSome(known) && known.value.remaining === 0) {
        return Effect.withParentSpan(loop(op, request, span, undefined, hint), span)
      }
      const first = Effect.catchAll(
        attempt(op, request, span, hint),
        (error) => Effect.withParentSpan(loop(op, request, span, error, hint), span)
      )
      if (Option.isNone(settings.budget)) return first
      // one admission, then the attempt; a wait (or anything after) goes through the loop
      const budget = settings.budget.value
      return Effect.flatMap(budget.buckets, (buckets) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.flatMap(admit(op, budget, buckets, now), (wait) =>
            wait <= 0 ? first : Effect.withParentSpan(loop(op, request, span, undefined, hint), span))))
    })

  /**
   * The function a client method calls: validate, build the request, send it inside the
   * call's span. The span records no stack trace (it would point here, not at the caller),
   * and the attempts set its attributes directly.
   */
  return (op: Operation) => {
    const spanOptions: Tracer.SpanOptions = {
      kind: "client",
      captureStackTrace: false,
      attributes: { "feeshare.operation": op.operation, "http.request.method": op.method }
    }
    const base = HttpClientRequest.make(op.method)(op.url, { headers: op.headers, acceptJson: true })
    return (input?: unknown): Effect.Effect<unknown, FeeShareError.FeeShareError> => {
      let request = base
      if (op.urlParams !== undefined) {
        const encoded = op.urlParams(input ?? {})
        if (Either.isLeft(encoded)) return Effect.fail(scrubInvalid(encoded.left))
        request = HttpClientRequest.setUrlParams(request, toUrlParams(encoded.right))
      }
      if (op.payload !== undefined) {
        const encoded = op.payload(input)
        if (Either.isLeft(encoded)) return Effect.fail(scrubInvalid(encoded.left))
        request = HttpClientRequest.bodyUnsafeJson(request, encoded.right)
      }
      return Effect.useSpan(op.operation, spanOptions, (span) => send(op, request, span))
    }
  }
}

const toUrlParams = (encoded: unknown): Record<string, string> => {
  const out: Record<string, string> = {}
  if (typeof encoded === "object" && encoded !== null) {
    for (const [key, value] of Object.entries(encoded)) {
      if (typeof value === "string") out[key] = value
      else if (typeof value === "number" || typeof value === "boolean") out[key] = String(value)
    }
  }
  return out
}
