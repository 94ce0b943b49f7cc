/**
 * Response decoding: an answer's body through the domain's envelope, its rate-limit headers
 * into the client's snapshot (and the shared budget's next admission), transport failures
 * into the domain's errors; the API key scrubbed from anything a server or a rule echoes.
 */
import type { Headers, HttpClientError, HttpClientResponse } from "@effect/platform"
import { Envelope, FeeShareError, RateLimit, Redaction } from "@feeshare/domain"
import type { Tracer } from "effect"
import { Clock, Effect, Either, Option, Redacted, SubscriptionRef } from "effect"
import type { Operation } from "./operations.js"
import * as SecretScrubber from "./secretScrubber.js"
import type { Settings } from "./settings.js"

/** What the latest answer of a call said beyond its failure: its `Retry-After` (429 and 503). */
export interface Hint {
  retryAfter: string | ReadonlyArray<string> | undefined
  /** The status of the latest answer (for the call's debug log). */
  status: number
}

/** The rate-limit snapshot of a failure, as the optional field of the domain's errors. */
export const withRateLimit = (info: RateLimit.RateLimitInfo | undefined) =>
  info === undefined ? {} : { rateLimit: info }

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

/** The decoding side of one client. */
export interface Decoder {
  /** The client's latest rate-limit snapshot. */
  readonly rateLimit: Effect.Effect<Option.Option<RateLimit.RateLimitInfo>>
  /** An input failure with the key scrubbed from its rule and message. */
  readonly scrubInvalid: (error: FeeShareError.InvalidRequest) => FeeShareError.InvalidRequest
  /** A transport failure as the domain's `TransportError`, the key scrubbed. */
  readonly transportError: (op: Operation, error: HttpClientError.HttpClientError) => FeeShareError.TransportError
  /**
   * An answer: decoded (or its failure), its rate-limit snapshot published and given to the
   * budget, its status and snapshot set on the call's span, its `Retry-After` kept in `hint`.
   */
  readonly receive: (
    op: Operation,
    response: HttpClientResponse.HttpClientResponse,
    text: string,
    span: Tracer.Span,
    hint: Hint
  ) => Effect.Effect<unknown, FeeShareError.ApiFailure>
}

/** The decoder of one client. */
export const make = (settings: Settings): Decoder => {
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

  const rateLimit = SubscriptionRef.get(settings.rateLimit)

  /** Publishes a new rate-limit snapshot; an identical one changes nothing. */
  const publish = (snapshot: RateLimit.RateLimitInfo) =>
    Effect.flatMap(
      rateLimit,
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

  const receive: Decoder["receive"] = (op, response, text, span, hint) => {
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

  const transportError: Decoder["transportError"] = (op, error) =>
    error._tag === "RequestError"
      ? new FeeShareError.TransportError({
        status: 0,
        // a URL in the cause (the platform quotes it) goes without its userinfo
        message: scrub(
          Redaction.text(`request failed (${error.reason}): ${describeCause(error.cause) || error.message}`)
        ),
        operation: op.operation
      })
      : new FeeShareError.TransportError({
        status: error.response.status,
        message: scrub(Redaction.text(`reading the response failed: ${describeCause(error.cause) || error.message}`)),
        operation: op.operation
      })

  return { rateLimit, scrubInvalid, transportError, receive }
}
