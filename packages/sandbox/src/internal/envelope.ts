import {
  HttpApiBuilder,
  HttpApiError,
  type HttpApp,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Api, FeeShareError, RateLimit, Validation } from "@feeshare/domain"
import { Cause, Clock, Effect, Option } from "effect"
import { Accounts } from "../Accounts.js"
import type * as Options from "../Options.js"
import { type Bucket, RateLimiter } from "../RateLimiter.js"
import * as SandboxApi from "../SandboxApi.js"
import * as Routes from "./routes.js"
import * as Seeded from "./seeded.js"

/** The messages of the envelope layer. */
export const messages = {
  rateLimited: "Rate limit exceeded",
  agentAuthLimited: "Too many requests",
  burst: "Rate limit exceeded (sandbox burst429)",
  invalidJson: "Invalid JSON body",
  internal: "Internal server error",
  injected: (status: number) => `Injected failure (sandbox errorRates ${status})`
} as const

const evmGroup = "evm"
const agentAuthGroup = "agentAuth"

type FailureBody = typeof FeeShareError.FailureBody.Encoded
type RateLimitedBody = typeof RateLimit.RateLimitedBody.Encoded

/** `{success:false,error}`, or `{success:false,response}` for the EVM operations' 400 and 500. */
export const failure = (status: number, message: string, route: Routes.Route | undefined) => {
  const body: FailureBody = route?.group === evmGroup && (status === 400 || status === 500)
    ? { success: false, response: message }
    : { success: false, error: message }
  return HttpServerResponse.unsafeJson(body, { status })
}

const rateLimited = (message: string, info: RateLimit.RateLimitInfo) => {
  const body: RateLimitedBody = {
    success: false,
    error: message,
    limit: info.limit,
    remaining: info.remaining,
    resetTime: info.resetAt
  }
  return HttpServerResponse.unsafeJson(body, { status: 429, headers: RateLimit.toHeaders(info) })
}

/** The first issue of a decode failure, as `operation: field rule` (as `InvalidRequest` words it). */
export const describeDecodeError = (operation: string, error: HttpApiError.HttpApiDecodeError): string => {
  const first = error.issues[0]
  if (first === undefined) return `${operation}: ${error.message}`
  const field = Validation.formatPath(first.path)
  return field === "" ? `${operation}: ${first.message}` : `${operation}: ${field} ${first.message}`
}

const isApiFailure = (
  error: unknown
): error is
  | FeeShareError.BadRequest
  | FeeShareError.Unauthorized
  | FeeShareError.Forbidden
  | FeeShareError.NotFound
  | FeeShareError.ServerError =>
  error instanceof FeeShareError.BadRequest ||
  error instanceof FeeShareError.Unauthorized ||
  error instanceof FeeShareError.Forbidden ||
  error instanceof FeeShareError.NotFound ||
  error instanceof FeeShareError.ServerError

/** Any cause as a failure envelope; defects are logged and never leak their text or stack. */
const toResponse = (
  cause: Cause.Cause<unknown>,
  request: HttpServerRequest.HttpServerRequest,
  route: Routes.Route | undefined
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  const operation = route?.operation ?? `${request.method} ${Routes.pathOf(request.url)}`
  const failed = Cause.failureOption(cause)
  if (Option.isSome(failed)) {
    const error = failed.value
    if (error instanceof HttpApiError.HttpApiDecodeError) {
      return Effect.succeed(failure(400, describeDecodeError(operation, error), route))
    }
    if (HttpServerError.isServerError(error) && error._tag === "RouteNotFound") {
      return Effect.succeed(failure(404, `Not found: ${request.method} ${Routes.pathOf(request.url)}`, route))
    }
    if (error instanceof FeeShareError.RateLimited) {
      return Effect.succeed(rateLimited(error.message, RateLimit.RateLimitInfo.make({
        limit: error.limit,
        remaining: error.remaining,
        resetAt: error.resetAt
      })))
    }
    if (isApiFailure(error)) {
      const status = error._tag === "ServerError" ? Math.max(500, error.status) : statusOf[error._tag]
      return Effect.succeed(failure(status, error.message, route))
    }
  }
  for (const defect of Cause.defects(cause)) {
    if (HttpServerError.isServerError(defect) && defect._tag === "RequestError" && defect.reason === "Decode") {
      return Effect.succeed(failure(400, `${operation}: ${messages.invalidJson}`, route))
    }
  }
  if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
  return Effect.as(
    Effect.logError(`${operation} failed`, Cause.pretty(cause)),
    failure(500, messages.internal, route)
  )
}

const statusOf = { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404 } as const

const clientIp = (request: HttpServerRequest.HttpServerRequest): string => {
  const forwarded = request.headers["x-forwarded-for"]
  if (forwarded !== undefined && forwarded !== "") return forwarded.split(",")[0]!.trim()
  return Option.getOrElse(request.remoteAddress, () => "unknown")
}

/**
 * The API-level middleware: rate limits and their headers on every answer, the fault knobs,
 * and every failure (decode errors, unknown routes, handler failures, defects) as an
 * envelope. The sandbox-only routes and the mounted paths (`/rpc`) skip the limits and the
 * injected faults (the mounted paths still get the latency).
 */
export const layer = (options: Options.Options, routes: Routes.Table, unmeteredPaths: ReadonlySet<string>) =>
  HttpApiBuilder.middleware(Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const accounts = yield* Accounts
    const random = Seeded.stream(options.seed, "faults")
    const injected = Object.entries(options.errorRates)
      .map(([status, rate]) => ({ status: Number(status), rate }))
      .filter(({ rate, status }) => Number.isInteger(status) && status >= 400 && status <= 599 && rate > 0)
      .sort((a, b) => a.status - b.status)
    let bursts = 0

    const pickInjected = (): number | undefined => {
      if (injected.length === 0) return undefined
      const draw = random.float()
      let cumulative = 0
      for (const { rate, status } of injected) {
        cumulative += rate
        if (draw < cumulative) return status
      }
      return undefined
    }

    const handle = (
      app: HttpApp.Default,
      request: HttpServerRequest.HttpServerRequest,
      path: string,
      route: Routes.Route | undefined
    ) =>
      Effect.gen(function*() {
        const guarded = app.pipe(Effect.catchAllCause((cause) => toResponse(cause, request, route)))
        const unmetered = route?.group === "sandbox" || path.startsWith(`${SandboxApi.prefix}/`)
        if (options.latencyMillis > 0 && !unmetered) yield* Effect.sleep(options.latencyMillis)
        if (unmetered || unmeteredPaths.has(path)) return yield* guarded

        const now = yield* Clock.currentTimeMillis
        const ip = clientIp(request)
        const buckets: Array<Bucket> = [{ key: `ip:${ip}`, limit: options.rateLimit, windowMillis: options.rateWindowMillis }]
        const apiKey = request.headers[Api.apiKeyHeader]
        if (apiKey !== undefined && route?.group !== agentAuthGroup) {
          const owner = accounts.resolve(apiKey)
          if (Option.isSome(owner)) {
            buckets.unshift({
              key: `user:${owner.value.userId}`,
              limit: options.rateLimit,
              windowMillis: options.rateWindowMillis
            })
          }
        }
        if (route?.group === agentAuthGroup) {
          buckets.push({
            key: `agent:${ip}`,
            limit: options.agentAuthLimit,
            windowMillis: options.agentAuthWindowMillis,
            hidden: true
          })
        }

        if (bursts < options.burst429) {
          bursts++
          return rateLimited(
            messages.burst,
            RateLimit.RateLimitInfo.make({ limit: options.rateLimit, remaining: 0, resetAt: Math.ceil(now / 1000) + 1 })
          )
        }
        const decision = limiter.admitAt(buckets, now)
        if (!decision.admitted) {
          return rateLimited(
            decision.bucket.startsWith("agent:") ? messages.agentAuthLimited : messages.rateLimited,
            decision.info
          )
        }
        const headers = RateLimit.toHeaders(decision.info)
        const status = pickInjected()
        if (status === 429) return rateLimited(messages.rateLimited, decision.info)
        const response = status === undefined
          ? yield* guarded
          : failure(status, messages.injected(status), route)
        return HttpServerResponse.setHeaders(response, headers)
      })

    return (app: HttpApp.Default): HttpApp.Default =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const path = Routes.pathOf(request.url)
        const route = routes.get(Routes.key(request.method, path))
        // a defect of this middleware itself is an envelope too
        return Effect.catchAllCause(handle(app, request, path, route), (cause) => toResponse(cause, request, route))
      })
  }))
