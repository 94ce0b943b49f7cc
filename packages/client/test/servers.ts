/**
 * In-test servers on localhost: the domain's `Api.Api` served by `HttpApiBuilder` with
 * SPEC-shaped answers, and scripted catch-all routers for the failure cases (they answer
 * whatever path is asked, so no path is written here either).
 */
import {
  FetchHttpClient,
  HttpApiBuilder,
  HttpApp,
  HttpRouter,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer, NodeHttpServerRequest } from "@effect/platform-node"
import { AgentAuth, Api, FeeShareError, PublicKey, RateLimit } from "@feeshare/domain"
import { Clock, Effect, Layer, Redacted } from "effect"
import { createServer } from "node:http"
import { FeeShareClient } from "../src/index.js"
import * as F from "./fixtures.js"

export const apiKey = "fs-test-key-7c1f0e2d9b"

/** Where a started server listens. */
export const listen = NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })

/** `{base_url}` of the server in context. */
export const baseUrl = HttpServer.addressFormattedWith((address) => Effect.succeed(`${address}${Api.basePath}`))

/** A client of the server in context, over the fetch `HttpClient`. */
export const makeClient = (options: Omit<FeeShareClient.FeeShareClient.Options, "baseUrl"> = {}) =>
  Effect.flatMap(baseUrl, (url) => FeeShareClient.make({ baseUrl: url, ...options })).pipe(
    Effect.provide(FetchHttpClient.layer)
  )

// ---------------------------------------------------------------------------
// the HttpApi server
// ---------------------------------------------------------------------------

/** What the API server received, decoded by the domain's schemas. */
export interface Received {
  readonly operation: string
  readonly input: unknown
}

export interface ApiServerOptions {
  /** Answer the first callback with an MFA challenge. */
  readonly mfa?: boolean
  readonly limit?: number
}

const ok = Effect.succeed

/** `Api.Api` served on localhost; every handler records its decoded input in `received`. */
export const apiServer = (received: Array<Received>, options: ApiServerOptions = {}) => {
  const record = (group: string, endpoint: string, input: unknown) =>
    Effect.sync(() => received.push({ operation: Api.operationName(group, endpoint), input }))
  const challenges = new Map<string, Uint8Array>()
  let nonces = 0

  const Claims = HttpApiBuilder.group(Api.Api, "claims", (handlers) =>
    handlers
      .handle("createPlan", ({ payload }) => record("claims", "createPlan", payload).pipe(Effect.as(F.plan)))
      .handle("positions", ({ urlParams }) => record("claims", "positions", urlParams).pipe(Effect.as(F.positions)))
      .handle("vaults", ({ urlParams }) => record("claims", "vaults", urlParams).pipe(Effect.as(F.vaults)))
      .handle("claimVault", ({ payload }) => record("claims", "claimVault", payload).pipe(Effect.as(F.vaultClaim)))
      .handle("deployerPositions", ({ urlParams }) =>
        record("claims", "deployerPositions", urlParams).pipe(Effect.as(F.deployerPositions)))
      .handle("deployerClaim", ({ payload }) =>
        record("claims", "deployerClaim", payload).pipe(Effect.as(F.deployerBatch)))
      .handle("claimV3", ({ payload }) =>
        record("claims", "claimV3", payload).pipe(Effect.as(F.v3Claim))))
  const FeeShare = HttpApiBuilder.group(Api.Api, "feeShare", (handlers) =>
    handlers
      .handle("createConfig", ({ payload }) =>
        record("feeShare", "createConfig", payload).pipe(Effect.as(F.createConfigAnswer)))
      .handle("updateConfig", ({ payload }) =>
        record("feeShare", "updateConfig", payload).pipe(Effect.as(F.transactionEntries)))
      .handle("partnerClaim", ({ payload }) =>
        record("feeShare", "partnerClaim", payload).pipe(Effect.as(F.transactionEntries)))
      .handle("adminList", ({ urlParams }) =>
        record("feeShare", "adminList", urlParams).pipe(Effect.as(F.adminTokens))))
  const Launch = HttpApiBuilder.group(
    Api.Api,
    "launch",
    (handlers) =>
      handlers
        .handle(
          "createTransaction",
          ({ payload }) => record("launch", "createTransaction", payload).pipe(Effect.as(F.base58Transaction))
        )
        .handle(
          "createTokenInfo",
          ({ payload }) => record("launch", "createTokenInfo", payload).pipe(Effect.as(F.tokenInfo))
        )
        .handle("wallet", ({ urlParams }) => record("launch", "wallet", urlParams).pipe(Effect.as(F.launchWallet)))
        .handle(
          "wallets",
          ({ payload }) => record("launch", "wallets", payload).pipe(Effect.as(F.bulkLaunchWallets(payload.items)))
        )
  )
  const Trade = HttpApiBuilder.group(Api.Api, "trade", (handlers) =>
    handlers
      .handle("quote", ({ urlParams }) => record("trade", "quote", urlParams).pipe(Effect.as(F.quote)))
      .handle("swap", ({ payload }) => record("trade", "swap", payload).pipe(Effect.as(F.swapResult))))
  const Analytics = HttpApiBuilder.group(Api.Api, "analytics", (handlers) =>
    handlers
      .handle("lifetimeFees", ({ urlParams }) =>
        record("analytics", "lifetimeFees", urlParams).pipe(Effect.as(F.lifetimeFees)))
      .handle("claimStats", ({ urlParams }) =>
        record("analytics", "claimStats", urlParams).pipe(Effect.as(F.claimStats)))
      .handle("claimEvents", ({ urlParams }) =>
        record("analytics", "claimEvents", urlParams).pipe(Effect.as(F.claimEvents)))
      .handle("pools", ({ urlParams }) =>
        record("analytics", "pools", urlParams).pipe(Effect.as(F.pools))))
  const Evm = HttpApiBuilder.group(Api.Api, "evm", (handlers) =>
    handlers
      .handle("indexTokenStatus", ({ payload }) =>
        record("evm", "indexTokenStatus", payload).pipe(Effect.as(F.indexStatuses)))
      .handle("claimablePositions", ({ urlParams }) =>
        record("evm", "claimablePositions", urlParams).pipe(Effect.as(F.evmPositions)))
      .handle("creationFee", () =>
        record("evm", "creationFee", undefined).pipe(Effect.as(F.creationFee))))
  const Identity = HttpApiBuilder.group(
    Api.Api,
    "identity",
    (handlers) => handlers.handle("me", () => record("identity", "me", undefined).pipe(Effect.as(F.me)))
  )
  const badRequest = (message: string) =>
    Effect.fail(new FeeShareError.BadRequest({ status: 400, message, operation: "" }))
  const AgentAuthLive = HttpApiBuilder.group(Api.Api, "agentAuth", (handlers) =>
    handlers
      .handle("init", ({ payload }) =>
        record("agentAuth", "init", payload).pipe(Effect.map(() => {
          const bytes = new Uint8Array(32).map((_, i) => (i * 7 + nonces) % 256)
          const nonce = `nonce-${++nonces}`
          challenges.set(nonce, bytes)
          return { message: PublicKey.base58.encode(bytes), nonce }
        })))
      .handle("callback", ({ payload }) =>
        Effect.gen(function*() {
          yield* record("agentAuth", "callback", payload)
          if ("authCode" in payload) {
            return payload.authCode === "auth-code-1" && payload.mfaCode === "123456"
              ? { apiKey: Redacted.make("fs-new-key"), keyId: "key-2", isSignup: false }
              : yield* badRequest("Invalid or expired auth code")
          }
          const message = challenges.get(payload.nonce)
          if (message === undefined) return yield* badRequest("Nonce not found or expired")
          challenges.delete(payload.nonce)
          const signature = PublicKey.base58.decode(payload.signature) ?? new Uint8Array(0)
          if (!F.verifySignature(payload.address, message, signature)) return yield* badRequest("Invalid signature")
          const answer: AgentAuth.CallbackResponse = options.mfa === true
            ? { mfaRequired: true, mfaMethod: "totp", authCode: "auth-code-1" }
            : { apiKey: Redacted.make("fs-new-key"), keyId: "key-1", isSignup: true }
          return answer
        })))
  const System = HttpApiBuilder.group(
    Api.Api,
    "system",
    (handlers) =>
      handlers.handle("ping", () => record("system", "ping", undefined).pipe(Effect.as({ message: "pong" })))
  )

  const Auth = Layer.succeed(Api.ApiKey, {
    apiKey: (key) =>
      Redacted.value(key) === apiKey
        ? ok({ userId: "user-1", keyId: "key-0" })
        : Effect.fail(new FeeShareError.Unauthorized({ status: 401, message: "invalid api key", operation: "" }))
  })

  const limit = options.limit ?? 5000
  let served = 0
  // every answer (errors included) carries the rate-limit headers, remaining counting down
  const headers = (app: HttpApp.Default) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      served++
      const info = new RateLimit.RateLimitInfo({
        limit,
        remaining: Math.max(0, limit - served),
        resetAt: Math.floor(now / 1000) + 3600
      })
      yield* HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, RateLimit.toHeaders(info)))
      )
      return yield* app
    })

  return HttpApiBuilder.serve(headers).pipe(
    Layer.provide(HttpApiBuilder.api(Api.Api)),
    Layer.provide([Claims, FeeShare, Launch, Trade, Analytics, Evm, Identity, AgentAuthLive, System]),
    Layer.provide(Auth),
    Layer.provideMerge(listen)
  )
}

// ---------------------------------------------------------------------------
// scripted servers
// ---------------------------------------------------------------------------

/** What a scripted server saw of one request. */
export interface Seen {
  readonly n: number
  readonly method: string
  readonly url: string
  readonly apiKey: string | undefined
  readonly at: number
}

/**
 * A server answering every path with `respond(request, n)` (n counts from 1); every request
 * is recorded in `seen` before it is answered.
 */
export const scripted = (
  seen: Array<Seen>,
  respond: (
    request: HttpServerRequest.HttpServerRequest,
    seen: Seen
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
) =>
  HttpRouter.empty.pipe(
    HttpRouter.all(
      "*",
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const entry: Seen = {
          n: seen.length + 1,
          method: request.method,
          url: request.url,
          apiKey: request.headers[Api.apiKeyHeader],
          at: yield* Clock.currentTimeMillis
        }
        seen.push(entry)
        return yield* respond(request, entry)
      })
    ),
    HttpServer.serve(),
    Layer.provideMerge(listen)
  )

/** A JSON answer with an optional status and headers. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Effect.succeed(HttpServerResponse.unsafeJson(body, { status, headers }))

/** A raw answer with a given content type. */
export const raw = (body: string, status: number, contentType: string) =>
  Effect.succeed(HttpServerResponse.text(body, { status, contentType }))

/** Destroys the connection without answering (the client sees a reset). */
export const reset = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.sync(() => NodeHttpServerRequest.toIncomingMessage(request).socket.destroy()).pipe(
    Effect.zipRight(Effect.never)
  )

/** Never answers; when the client gives up, the connection is dropped at once. */
export const hang = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.never.pipe(
    Effect.onInterrupt(() => Effect.sync(() => NodeHttpServerRequest.toIncomingMessage(request).socket.destroy())),
    Effect.as(HttpServerResponse.empty())
  )

/** A success envelope. */
export const success = (response: unknown) => ({ success: true, response })
