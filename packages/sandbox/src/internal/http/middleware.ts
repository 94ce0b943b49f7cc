/**
 * The HTTP middleware around every API request (the module the envelope answers come from):
 * API keys and rate limits with their headers, the admin token of `/sandbox/...`, body
 * bounds, the fault knobs, every failure as an envelope, and the history's request log.
 */
import {
  HttpApiBuilder,
  HttpApiError,
  type HttpApp,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Api, FeeShareError, RateLimit, TokenInfo, Validation } from "@feeshare/domain"
import { Cause, Clock, Context, DefaultServices, Effect, Either, type Fiber, Option } from "effect"
import { Accounts } from "../model/accounts.js"
import { History } from "../model/history/service.js"
import type * as Options from "../model/options.js"
import * as Seeded from "../model/seeded.js"
import * as AdminToken from "./adminToken.js"
import * as Body from "./body.js"
import * as Hosts from "./hosts.js"
import * as Multipart from "./multipart.js"
import { type Bucket, RateLimiter } from "./rateLimiter.js"
import * as Routes from "./routes.js"

/** The messages of the envelope layer. */
export const messages = {
  rateLimited: "Rate limit exceeded",
  agentAuthLimited: "Too many requests",
  burst: "Rate limit exceeded (sandbox burst429)",
  invalidJson: "Invalid JSON body",
  internal: "Internal server error",
  notFound: (method: string, path: string) => `Not found: ${method} ${path}`,
  tooLarge: (limit: number) => `Request body too large: the limit is ${limit} bytes`,
  contentType: (given: string | undefined) =>
    `Content-Type must be application/json, got ${given === undefined ? "none" : given}`,
  multipartType: (given: string | undefined) =>
    `Content-Type must be multipart/form-data, got ${given === undefined ? "none" : given}`,
  /** A multipart route's body or file over its limit: the token-info route's words (the only one). */
  fileTooLarge: TokenInfo.imageTooLargeMessage,
  tooDeep: (operation: string) => `${operation}: JSON nested deeper than ${Body.maxJsonDepth} levels`,
  adminToken: "The sandbox set-up routes need the sandbox admin token (Authorization: Bearer TOKEN), printed at start",
  injected: (status: number) => `Injected failure (sandbox errorRates ${status})`
} as const

const evmGroup = "evm"
/** Bucket objects kept per kind (users, IPs); past it the cache starts over. */
const maxCachedBuckets = 10_000
const agentAuthGroup = "agentAuth"

type FailureBody = typeof FeeShareError.FailureBody.Encoded
type RateLimitedBody = typeof RateLimit.RateLimitedBody.Encoded

/** The most of a message an envelope carries: a 1 MB bad value is not echoed back whole. */
export const maxMessageLength = 500

const capped = (message: string): string =>
  message.length > maxMessageLength ? `${message.slice(0, maxMessageLength)}… (${message.length} characters)` : message

/**
 * `{success:false,error}`, or `{success:false,response}` for the EVM operations' 400 and 500
 * and the statuses an endpoint names with `Api.MessageInResponse`.
 */
export const failure = (status: number, message: string, route: Routes.Route | undefined) => {
  const text = capped(message)
  const inResponse = (route?.group === evmGroup && (status === 400 || status === 500)) ||
    (route !== undefined && route.messageInResponse.includes(status))
  const body: FailureBody = inResponse
    ? { success: false, response: text }
    : { success: false, error: text }
  return HttpServerResponse.unsafeJson(body, { status })
}

/** A 413, closing the connection: the rest of the body is not read. */
const tooLarge = (limit: number, route: Routes.Route | undefined) =>
  HttpServerResponse.setHeader(failure(413, messages.tooLarge(limit), route), "connection", "close")

/** Whether a Content-Type names multipart/form-data. */
const isMultipart = (contentType: string): boolean =>
  (contentType.split(";")[0]?.trim().toLowerCase() ?? "") === "multipart/form-data"

/** A multipart route's 413: the file's words, closing the connection. */
const fileTooLarge = (route: Routes.Route) =>
  HttpServerResponse.setHeader(failure(413, messages.fileTooLarge, route), "connection", "close")

/** Whether a Content-Type names JSON (`application/json`, `application/x+json`, with parameters). */
const isJson = (contentType: string): boolean => {
  const media = contentType.split(";")[0]?.trim().toLowerCase() ?? ""
  return media === "application/json" || (media.startsWith("application/") && media.endsWith("+json"))
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
      return Effect.succeed(failure(404, messages.notFound(request.method, Routes.pathOf(request.url)), route))
    }
    if (error instanceof FeeShareError.RateLimited) {
      return Effect.succeed(rateLimited(
        error.message,
        RateLimit.RateLimitInfo.make({
          limit: error.limit,
          remaining: error.remaining,
          resetAt: error.resetAt
        })
      ))
    }
    if (isApiFailure(error)) {
      const status = error._tag === "ServerError" ? Math.max(500, error.status) : statusOf[error._tag]
      return Effect.succeed(failure(status, error.message, route))
    }
  }
  for (const defect of [...Cause.defects(cause), ...Option.toArray(failed)]) {
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

/** The client's address: the socket's, or with `trustProxy` the first `X-Forwarded-For` hop. */
const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const forwarded = trustProxy ? request.headers["x-forwarded-for"] : undefined
  if (forwarded !== undefined && forwarded !== "") return forwarded.split(",")[0]?.trim() ?? "unknown"
  return Option.getOrElse(request.remoteAddress, () => "unknown")
}

/**
 * The API-level middleware: rate limits and their headers on every answer, the fault knobs,
 * and every failure (decode errors, unknown routes, handler failures, defects) as an
 * envelope. The sandbox-only routes and the mounted paths (`/rpc`) skip the limits and the
 * injected faults (the mounted paths still get the latency).
 *
 * It runs for every request, so its decision is plain synchronous code inside one
 * `withFiberRuntime` (the request and the `Clock` are read from the fiber), and the app is
 * wrapped in a single `matchCauseEffect`: no generator, no per-request `Effect` chain.
 */
export const layer = (options: Options.Options, routes: Routes.Table, unmeteredPaths: ReadonlySet<string>) =>
  HttpApiBuilder.middleware(Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const accounts = yield* Accounts
    const adminToken = yield* AdminToken.AdminToken
    // the explorer's request log, when the sandbox keeps one (`Sandbox.layer` does)
    const history = Option.getOrUndefined(yield* Effect.serviceOption(History))
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

    // the buckets are the same objects for the same key: no allocation per request
    const userBuckets = new Map<string, Bucket>()
    const ipBuckets = new Map<string, Bucket>()
    const agentBuckets = new Map<string, Bucket>()
    const bucketOf = (cache: Map<string, Bucket>, key: string, make: (key: string) => Bucket): Bucket => {
      let bucket = cache.get(key)
      if (bucket === undefined) {
        // a cache, not a record: many addresses only cost a rebuild of it
        if (cache.size >= maxCachedBuckets) cache.clear()
        bucket = make(key)
        cache.set(key, bucket)
      }
      return bucket
    }
    const userBucket = (userId: string) => ({
      key: `user:${userId}`,
      limit: options.rateLimit,
      windowMillis: options.rateWindowMillis
    })
    const ipBucket = (ip: string) => ({
      key: `ip:${ip}`,
      limit: options.rateLimit,
      windowMillis: options.rateWindowMillis
    })
    const agentBucket = (ip: string) => ({
      key: `agent:${ip}`,
      limit: options.agentAuthLimit,
      windowMillis: options.agentAuthWindowMillis,
      hidden: true
    })

    /** Runs `app`; its answer, or any failure of it as an envelope, gets `headers`. */
    const guarded = (
      app: HttpApp.Default,
      request: HttpServerRequest.HttpServerRequest,
      route: Routes.Route | undefined,
      headers: Record<string, string> | undefined
    ): HttpApp.Default =>
      Effect.matchCauseEffect(app, {
        onFailure: (cause) =>
          headers === undefined
            ? toResponse(cause, request, route)
            : Effect.map(
              toResponse(cause, request, route),
              (response) => HttpServerResponse.setHeaders(response, headers)
            ),
        onSuccess: (response) =>
          Effect.succeed(headers === undefined ? response : HttpServerResponse.setHeaders(response, headers))
      })

    /** The metered path: the budgets, the burst and injected faults, then the app. */
    const metered = (
      app: HttpApp.Default,
      request: HttpServerRequest.HttpServerRequest,
      route: Routes.Route | undefined,
      now: number
    ): HttpApp.Default => {
      const ip = clientIp(request, options.trustProxy)
      const agentAuth = route?.group === agentAuthGroup
      let user: Bucket | undefined
      const apiKey = request.headers[Api.apiKeyHeader]
      if (apiKey !== undefined && !agentAuth) {
        const owner = accounts.resolve(apiKey)
        if (Option.isSome(owner)) user = bucketOf(userBuckets, owner.value.userId, userBucket)
      }
      const ipB = bucketOf(ipBuckets, ip, ipBucket)
      const buckets: ReadonlyArray<Bucket> = agentAuth
        ? [ipB, bucketOf(agentBuckets, ip, agentBucket)]
        : user === undefined
        ? [ipB]
        : [user, ipB]

      if (bursts < options.burst429) {
        bursts++
        return Effect.succeed(rateLimited(
          messages.burst,
          RateLimit.RateLimitInfo.make({ limit: options.rateLimit, remaining: 0, resetAt: Math.ceil(now / 1000) + 1 })
        ))
      }
      const decision = limiter.admitAt(buckets, now)
      if (!decision.admitted) {
        return Effect.succeed(rateLimited(
          decision.bucket.startsWith("agent:") ? messages.agentAuthLimited : messages.rateLimited,
          decision.info
        ))
      }
      const headers = {
        [RateLimit.headerNames.limit]: String(decision.limit),
        [RateLimit.headerNames.remaining]: String(decision.remaining),
        [RateLimit.headerNames.reset]: String(decision.resetAt)
      }
      const status = pickInjected()
      if (status === 429) return Effect.succeed(rateLimited(messages.rateLimited, decision.info))
      return status === undefined
        ? guarded(app, request, route, headers)
        : Effect.succeed(HttpServerResponse.setHeaders(failure(status, messages.injected(status), route), headers))
    }

    /**
     * What is refused before the app runs: the set-up routes without the admin token when one
     * is required, and bodies that are not JSON or are over the limit by their declared length.
     */
    const refusal = (
      request: HttpServerRequest.HttpServerRequest,
      route: Routes.Route
    ): HttpServerResponse.HttpServerResponse | undefined => {
      if (route.group === "sandbox" && Option.isSome(adminToken)) {
        if (!AdminToken.authorizes(adminToken.value, request.headers.authorization)) {
          return failure(401, messages.adminToken, route)
        }
      }
      if (request.method === "GET") return undefined
      const declared = request.headers["content-length"]
      const contentType = request.headers["content-type"]
      if (route.multipart !== undefined) {
        // the one route whose body is a form, with its own (larger) cap
        if (declared !== undefined && Number(declared) > Multipart.maxTotal(route.multipart, options.maxBodyBytes)) {
          return fileTooLarge(route)
        }
        return contentType !== undefined && isMultipart(contentType)
          ? undefined
          : failure(400, `${route.operation}: ${messages.multipartType(contentType)}`, route)
      }
      if (declared !== undefined && Number(declared) > options.maxBodyBytes) {
        return tooLarge(options.maxBodyBytes, route)
      }
      if (contentType !== undefined && !isJson(contentType)) {
        return failure(400, messages.contentType(contentType), route)
      }
      return undefined
    }

    /**
     * Runs a multipart route's `app` on its form read once: cut at the route's total size
     * (413), parsed within its part limits, handed to the endpoint's schema as the request's
     * `multipart` record.
     */
    const withForm = (
      app: HttpApp.Default,
      request: HttpServerRequest.HttpServerRequest,
      route: Routes.Route,
      limits: NonNullable<Routes.Route["multipart"]>
    ): HttpApp.Default =>
      Effect.flatMap(Body.readBytes(request, Multipart.maxTotal(limits, options.maxBodyBytes)), (read) => {
        if (read._tag === "TooLarge") return Effect.succeed(fileTooLarge(route))
        return Effect.flatMap(
          Multipart.parse(read.bytes, request.headers["content-type"] ?? "", limits, messages.fileTooLarge),
          (parsed) => {
            if (Either.isLeft(parsed)) {
              return Effect.succeed(
                parsed.left.status === 413
                  ? fileTooLarge(route)
                  : failure(400, `${route.operation}: ${parsed.left.message}`, route)
              )
            }
            const withFields: HttpServerRequest.HttpServerRequest = Object.create(request, {
              multipart: { value: Effect.succeed(parsed.right) }
            })
            return Effect.provideService(app, HttpServerRequest.HttpServerRequest, withFields)
          }
        )
      }).pipe(
        Effect.catchTag(
          "RequestError",
          () => Effect.succeed(failure(400, `${route.operation}: the body ended early`, route))
        )
      )

    /** Runs `app` on the body read once: cut at the limit (413), refused when nested too deep. */
    const withBody = (
      app: HttpApp.Default,
      request: HttpServerRequest.HttpServerRequest,
      route: Routes.Route
    ): HttpApp.Default =>
      route.multipart !== undefined ?
        withForm(app, request, route, route.multipart) :
        Effect.flatMap(Body.read(request, options.maxBodyBytes), (read) => {
          if (read._tag === "TooLarge") return Effect.succeed(tooLarge(options.maxBodyBytes, route))
          if (Body.nestsDeeperThan(read.text, Body.maxJsonDepth)) {
            return Effect.succeed(failure(400, messages.tooDeep(route.operation), route))
          }
          return Effect.provideService(app, HttpServerRequest.HttpServerRequest, Body.withText(request, read.text))
        }).pipe(
          // the client broke off the body
          Effect.catchTag("RequestError", () =>
            Effect.succeed(failure(400, `${route.operation}: ${messages.invalidJson}`, route)))
        )

    const allowedHosts = Hosts.allowedNames(options.host)

    /**
     * What is refused on every path, mounted ones (`/rpc`, the explorer) included, before
     * anything else: a `Host` that is not one of the sandbox's names or a foreign `Origin`
     * (DNS rebinding, cross-site pages: 403), and a `POST` whose body is not declared JSON
     * (a page can send `text/plain` anywhere without asking: 400).
     */
    const foreign = (
      request: HttpServerRequest.HttpServerRequest,
      route: Routes.Route | undefined
    ): HttpServerResponse.HttpServerResponse | undefined => {
      const rebinding = Hosts.refusal(allowedHosts, request.headers.host, request.headers.origin)
      if (rebinding !== undefined) return failure(403, rebinding, route)
      if (request.method !== "POST") return undefined
      const contentType = request.headers["content-type"]
      // a form only where the route takes one; it still needs the API key header, which a
      // cross-site form cannot send without a preflight
      if (route?.multipart !== undefined && contentType !== undefined && isMultipart(contentType)) return undefined
      return contentType === undefined || !isJson(contentType)
        ? failure(400, messages.contentType(contentType), route)
        : undefined
    }

    const handle = (
      app: HttpApp.Default,
      fiber: Fiber.RuntimeFiber<unknown, unknown>,
      request: HttpServerRequest.HttpServerRequest,
      path: string,
      route: Routes.Route | undefined
    ): HttpApp.Default => {
      const refusedEverywhere = foreign(request, route)
      if (refusedEverywhere !== undefined) return Effect.succeed(refusedEverywhere)
      if (unmeteredPaths.has(path)) return guarded(app, request, route, undefined)
      const now = () =>
        Context.get(fiber.getFiberRef(DefaultServices.currentServices), Clock.Clock).unsafeCurrentTimeMillis()
      // a path that is not exactly a route (`/x/`, `//x`, `/X`, `/x;y`) is a 404, counted
      // against the IP: it never reaches the router, so it cannot slip past a limit keyed on the route
      if (route === undefined) {
        return metered(
          Effect.succeed(failure(404, messages.notFound(request.method, path), route)),
          request,
          route,
          now()
        )
      }
      const refused = refusal(request, route)
      const bounded = refused !== undefined
        ? Effect.succeed(refused)
        : request.method === "GET"
        ? app
        : withBody(app, request, route)
      return route.group === "sandbox"
        ? guarded(bounded, request, route, undefined)
        : metered(bounded, request, route, now())
    }

    /** Records the answer of an API request (not of the mounted paths) in the history. */
    const recorded = (answer: HttpApp.Default, log: History.Service): HttpApp.Default =>
      Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>(
        (fiber) => {
          const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
          const path = Routes.pathOf(request.url)
          if (unmeteredPaths.has(path)) return answer
          const clock = Context.get(fiber.getFiberRef(DefaultServices.currentServices), Clock.Clock)
          const start = clock.unsafeCurrentTimeMillis()
          return Effect.map(answer, (response) => {
            const end = clock.unsafeCurrentTimeMillis()
            const apiKey = request.headers[Api.apiKeyHeader]
            const limit = response.headers[RateLimit.headerNames.limit]
            log.request({
              at: start,
              method: request.method,
              path,
              operation: routes.get(Routes.key(request.method, path))?.operation ?? `${request.method} ${path}`,
              status: response.status,
              latencyMillis: end - start,
              keyId: apiKey === undefined
                ? null
                : Option.getOrNull(Option.map(accounts.resolve(apiKey), (owner) => owner.keyId)),
              rateLimit: limit === undefined ? null : {
                limit,
                remaining: response.headers[RateLimit.headerNames.remaining] ?? "",
                reset: response.headers[RateLimit.headerNames.reset] ?? ""
              }
            })
            return response
          })
        }
      )

    const answered = (app: HttpApp.Default): HttpApp.Default =>
      Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>(
        (fiber) => {
          const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
          const path = Routes.pathOf(request.url)
          const route = routes.get(Routes.key(request.method, path))
          const unmetered = route?.group === "sandbox"
          try {
            if (options.latencyMillis > 0 && !unmetered) {
              // the mounted paths get the latency too; the budgets are read after it
              return Effect.zipRight(
                Effect.sleep(options.latencyMillis),
                Effect.withFiberRuntime<
                  HttpServerResponse.HttpServerResponse,
                  never,
                  HttpServerRequest.HttpServerRequest
                >(
                  (after) => handle(app, after, request, path, route)
                )
              ).pipe(Effect.catchAllCause((cause) => toResponse(cause, request, route)))
            }
            return handle(app, fiber, request, path, route)
          } catch (defect) {
            // a defect of this middleware itself is an envelope too
            return toResponse(Cause.die(defect), request, route)
          }
        }
      )

    return (app: HttpApp.Default): HttpApp.Default =>
      history === undefined ? answered(app) : recorded(answered(app), history)
  }))
