/**
 * The sandbox's HTTP server: the domain's `Api.Api` (plus the sandbox-only `SandboxApi`)
 * served with `HttpApiBuilder` on the Node HTTP server, at
 * `{base_url}` = `http://HOST:PORT/api/v1`, with `{root_url}/ping`, `/sandbox/...` and
 * (when a ledger provides it) `/rpc`, over HTTP and as WebSocket upgrades (`Mount.upgrade`).
 *
 * Every answer of the service's routes carries `X-RateLimit-Limit/Remaining/Reset`; every
 * failure is an envelope (`{success:false,error}`, or `response` for the EVM operations'
 * 400 and 500); a defect is a 500 envelope and a log line, never a stack trace.
 *
 * @since 0.1.0
 */
import { HttpApiBuilder, HttpMiddleware, HttpServer, type HttpServerError } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Api } from "@feeshare/domain"
import { Context, Effect, Layer, type Option, type Redacted, type Scope } from "effect"
import { IncomingMessage, Server as NodeServer, type ServerOptions } from "node:http"
import { Duplex } from "node:stream"
import { Accounts } from "./Accounts.js"
import * as Accounts_ from "./Accounts.js"
import { AdminToken } from "./AdminToken.js"
import * as AdminToken_ from "./AdminToken.js"
import * as EvmFixtures from "./EvmFixtures.js"
import * as Handlers from "./internal/http/handlers.js"
import * as Hosts from "./internal/http/hosts.js"
import * as Middleware from "./internal/http/middleware.js"
import * as Routes from "./internal/http/routes.js"
import type { UpgradeHandler } from "./internal/http/upgrade.js"
import type { Market } from "./Market.js"
import * as Options from "./Options.js"
import * as RateLimiter from "./RateLimiter.js"

/**
 * Where a running sandbox answers, and the demo API key it created at start-up.
 *
 * @since 0.1.0
 * @category tags
 */
export class SandboxInfo extends Context.Tag("@feeshare/sandbox/SandboxInfo")<SandboxInfo, {
  /** `http://HOST:PORT`. */
  readonly rootUrl: string
  /** `{root_url}/api/v1`. */
  readonly baseUrl: string
  /** `{root_url}/rpc` (JSON-RPC of the ledger). */
  readonly rpcUrl: string
  /** `ws://HOST:PORT/rpc`: the ledger's JSON-RPC subscriptions (WebSocket), as Kit's `createSolanaRpcSubscriptions` takes it. */
  readonly rpcSubscriptionsUrl: string
  readonly port: number
  /** A key of the seeded demo user (deterministic from `Options.seed` on loopback, random off it). */
  readonly demoApiKey: Redacted.Redacted<string>
  /** The token `/sandbox/...` requires (`Authorization: Bearer TOKEN`); none on loopback. */
  readonly adminToken: Option.Option<Redacted.Redacted<string>>
  readonly options: Options.Options
}>() {}

/**
 * The served definition: `Api.Api` with the sandbox-only operations added.
 *
 * @since 0.1.0
 * @category api
 */
export const FullApi = Handlers.FullApi

export type { UpgradeHandler } from "./internal/http/upgrade.js"

/**
 * Extra routes mounted next to the API (the ledger's `/rpc`): the paths they serve (which
 * skip the rate limits and the injected faults), a layer that adds them to
 * `HttpApiBuilder.Router`, e.g. `HttpApiBuilder.Router.use((router) => router.post("/rpc", app))`,
 * and optionally the handler of `GET` upgrade requests (WebSocket) to those paths: made once
 * the server listens, in a scope that closes before the server does (so it can close the
 * connections it took over, which the server would otherwise wait for).
 *
 * @since 0.1.0
 * @category models
 */
export interface Mount<R = never> {
  readonly paths: ReadonlyArray<string>
  readonly layer: Layer.Layer<never, never, HttpApiBuilder.Router | R>
  readonly upgrade?: Effect.Effect<UpgradeHandler, never, Exclude<R, HttpApiBuilder.Router> | Scope.Scope> | undefined
}

/**
 * The HTTP application without a listening server: needs `Market`, `Accounts`,
 * `RateLimiter`, `AdminToken` and an `HttpServer`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerApp = <R = never>(options: Options.Options, mounts: ReadonlyArray<Mount<R>> = []) => {
  const fixtures = EvmFixtures.make(options.seed)
  const routes = Routes.table(FullApi)
  const api = HttpApiBuilder.api(FullApi).pipe(Layer.provide(Handlers.layer(fixtures, options)))
  return HttpApiBuilder.serve().pipe(
    // no span per request: the sandbox is a local tool, and the span measurably lowers its throughput
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(Middleware.layer(options, routes, new Set(mounts.flatMap((mount) => mount.paths)))),
    Layer.provide(
      mounts.reduce<Layer.Layer<never, never, HttpApiBuilder.Router | R>>(
        (all, mount) => Layer.merge(all, mount.layer),
        Layer.empty
      ).pipe(Layer.provide(HttpApiBuilder.Router.Live))
    ),
    Layer.provide(api)
  )
}

const infoLayer = (options: Options.Options) =>
  Layer.effect(
    SandboxInfo,
    Effect.gen(function*() {
      const server = yield* HttpServer.HttpServer
      const accounts = yield* Accounts
      const adminToken = yield* AdminToken
      const address = server.address
      const host = address._tag === "TcpAddress"
        ? (address.hostname === "::" || address.hostname === "0.0.0.0" ? "127.0.0.1" : address.hostname)
        : "127.0.0.1"
      const port = address._tag === "TcpAddress" ? address.port : 0
      const hostPort = `${host.includes(":") ? `[${host}]` : host}:${port}`
      const rootUrl = `http://${hostPort}`
      return {
        rootUrl,
        baseUrl: `${rootUrl}${Api.basePath}`,
        rpcUrl: `${rootUrl}/rpc`,
        rpcSubscriptionsUrl: `ws://${hostPort}/rpc`,
        port,
        demoApiKey: accounts.demoKey,
        adminToken,
        options
      }
    })
  )

/** What Node answers itself, before a request reaches the app, as envelopes. */
const clientErrors: Record<string, readonly [status: number, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timeout: the request was not received in time"],
  ERR_HTTP_HEADERS_TIMEOUT: [408, "Request timeout: the headers were not received in time"]
}

const answerClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  if (!socket.writable || (error.code === "ECONNRESET")) {
    socket.destroy()
    return
  }
  const [status, message] = clientErrors[error.code ?? ""] ?? [400, "Bad request: malformed HTTP"]
  const body = JSON.stringify({ success: false, error: message })
  const reason = status === 431 ? "Request Header Fields Too Large" : status === 408 ? "Request Timeout" : "Bad Request"
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`
  )
}

/** A 403 on a socket whose upgrade is refused for its `Host` or `Origin`. */
const refuseUpgrade = (socket: Duplex, message: string): void => {
  const body = JSON.stringify({ success: false, error: message })
  socket.end(
    `HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`
  )
}

/**
 * A Node server that hands `GET` upgrade requests to a path of `upgrades` to that path's
 * handler, before (and instead of) any `upgrade` listener: the platform's listener would
 * otherwise run the HTTP app on them too. Other upgrades reach the listeners as usual. An
 * upgrade with a foreign `Host` or `Origin` (DNS rebinding, a cross-site page: browsers let
 * any page open a WebSocket) is answered 403 and never reaches a handler.
 */
class UpgradeRoutingServer extends NodeServer {
  readonly #upgrades: ReadonlyMap<string, UpgradeHandler>
  readonly #allowedHosts: ReadonlySet<string>
  constructor(
    options: ServerOptions,
    upgrades: ReadonlyMap<string, UpgradeHandler>,
    allowedHosts: ReadonlySet<string>
  ) {
    super(options)
    this.#upgrades = upgrades
    this.#allowedHosts = allowedHosts
  }
  override emit(event: string, ...args: Array<unknown>): boolean {
    if (event === "upgrade") {
      const [request, socket, head] = args
      if (request instanceof IncomingMessage && socket instanceof Duplex && Buffer.isBuffer(head)) {
        const handler = request.method === "GET"
          ? this.#upgrades.get((request.url ?? "").split("?")[0] ?? "")
          : undefined
        if (handler !== undefined) {
          const refused = Hosts.refusal(this.#allowedHosts, request.headers.host, request.headers.origin)
          if (refused !== undefined) refuseUpgrade(socket, refused)
          else handler(request, socket, head)
          return true
        }
      }
    }
    return super.emit(event, ...args)
  }
}

/**
 * The Node server with the sandbox's bounds: the size of a request head, the time to receive
 * the headers and the whole request (checked every quarter of the shorter one), and what Node
 * itself refuses answered as envelopes (431, 408, 400). `GET` upgrade requests to a path of
 * `upgrades` (read at each request) go to its handler, when their `Host` is one of the
 * sandbox's names and their `Origin` (if any) too.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeNodeServer = (
  options: Options.Options,
  upgrades: ReadonlyMap<string, UpgradeHandler> = new Map()
): NodeServer => {
  const server = new UpgradeRoutingServer(
    {
      maxHeaderSize: options.maxHeaderBytes,
      headersTimeout: options.headersTimeoutMillis,
      requestTimeout: options.requestTimeoutMillis,
      connectionsCheckingInterval: Math.max(
        10,
        Math.floor(Math.min(options.headersTimeoutMillis, options.requestTimeoutMillis) / 4)
      )
    },
    upgrades,
    Hosts.allowedNames(options.host)
  )
  server.on("clientError", answerClientError)
  return server
}

/**
 * Makes the mounts' upgrade handlers once the server listens (this layer needs the
 * `HttpServer`, so it is released before the server closes) and routes their paths to them.
 */
const upgradesLayer = <R>(mounts: ReadonlyArray<Mount<R>>, upgrades: Map<string, UpgradeHandler>) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    yield* HttpServer.HttpServer
    for (const mount of mounts) {
      if (mount.upgrade === undefined) continue
      const handler = yield* mount.upgrade
      for (const path of mount.paths) {
        yield* Effect.acquireRelease(
          Effect.sync(() => void upgrades.set(path, handler)),
          () => Effect.sync(() => void upgrades.delete(path))
        )
      }
    }
  }))

/**
 * Starts the HTTP server on `options.port` (0: a free port) with the given market, and
 * provides where it answers. Tests use it with a small in-memory `Market`; `Sandbox.layer`
 * composes it with the ledger-backed one.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = <R = never>(
  options: Partial<Options.Options> = {},
  mounts: ReadonlyArray<Mount<R | Accounts | RateLimiter.RateLimiter | AdminToken>> = []
): Layer.Layer<SandboxInfo, HttpServerError.ServeError, Market | Exclude<R, HttpApiBuilder.Router>> => {
  const resolved = Options.make(options)
  const state = Layer.mergeAll(Accounts_.layer(resolved), RateLimiter.layer, AdminToken_.layer(resolved))
  return Layer.unwrapEffect(Effect.sync(() => {
    // one routing table per build of the layer, shared by its Node server and its mounts
    const upgrades = new Map<string, UpgradeHandler>()
    return Layer.mergeAll(layerApp(resolved, mounts), infoLayer(resolved), upgradesLayer(mounts, upgrades)).pipe(
      Layer.provide(state),
      Layer.provide(
        NodeHttpServer.layer(() => makeNodeServer(resolved, upgrades), { port: resolved.port, host: resolved.host })
      )
    )
  }))
}
