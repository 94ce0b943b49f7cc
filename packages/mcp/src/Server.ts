/**
 * The MCP server: the toolkit over stdio (JSON-RPC lines on stdout, nothing else there), with
 * the client, the chain, the policy and the wallets it may sign with.
 *
 * @since 0.1.0
 */
import { McpServer } from "@effect/ai"
import {
  FetchHttpClient,
  type FileSystem,
  HttpMiddleware,
  HttpRouter,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer, NodeSink, NodeStream } from "@effect/platform-node"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
import type { Signer } from "@feeshare/domain"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as WalletSource from "@feeshare/solana/WalletSource"
import { Effect, Layer, Option, Redacted } from "effect"
import { timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import { dirname, resolve } from "node:path"
import * as Handlers from "./Handlers.js"
import * as StrictJsonRpc from "./internal/strictJsonRpc.js"
import * as ToolArguments from "./internal/toolArguments.js"
import * as Resources from "./Resources.js"
import { toolkit } from "./Tools.js"
import * as WritePolicy from "./WritePolicy.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly name?: string | undefined
  readonly version: string
  /** `{base_url}` of the service. */
  readonly baseUrl: string
  /** Never written anywhere: sent as `x-api-key` only. */
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  /** Solana JSON-RPC endpoint(s). */
  readonly rpcUrl: ReadonlyArray<string>
  readonly policy: WritePolicy.Policy
  /** The wallets that may sign (none in read-only mode). */
  readonly signers: ReadonlyArray<Signer.Signer.Service>
}

/**
 * The policy file (or the defaults) with `--read-only` on top, and the wallets it lets sign:
 * `keypair` first, then the policy's `wallets` (paths relative to the policy file). In
 * read-only mode no key file is read at all.
 *
 * @since 0.1.0
 * @category constructors
 */
export const loadPolicy = Effect.fn("Server.loadPolicy")(function*(options: {
  readonly policyFile: Option.Option<string>
  readonly readOnly: boolean
  readonly keypair: Option.Option<string>
}) {
  const loaded = Option.isSome(options.policyFile)
    ? yield* WritePolicy.load(options.policyFile.value)
    : yield* WritePolicy.decode({})
  const policy: WritePolicy.Policy = options.readOnly ? { ...loaded, readOnly: true } : loaded
  if (policy.readOnly) return { policy, signers: [] as ReadonlyArray<Signer.Signer.Service> }
  const base = Option.isSome(options.policyFile) ? dirname(resolve(options.policyFile.value)) : process.cwd()
  const sources: ReadonlyArray<WalletSource.WalletSource> = [
    ...Option.toArray(Option.map(options.keypair, (keypair) => ({ keypair: resolve(keypair) }))),
    ...policy.wallets.map((wallet) => (typeof wallet === "string" ? { keypair: wallet } : wallet))
  ]
  const wallets = yield* Effect.forEach(sources, (source) => WalletSource.load(source, base))
  const signers = wallets.flat().map((wallet) => wallet.signer)
  return { policy, signers }
})

/** The tools, the resources and everything they run on, for any transport. */
const serverLayer = (options: Options) => {
  const clientWith = (apiKey: Redacted.Redacted<string> | undefined) =>
    FeeShareClient.make({
      baseUrl: options.baseUrl,
      apiKey,
      retry: { maxAttempts: 3 },
      // a tool call waiting for the rate limit says so on stderr (never on stdout)
      onRateLimitWait: (wait) =>
        Effect.logWarning("waiting for the rate limit").pipe(
          Effect.annotateLogs({ operation: wait.operation, waitMillis: wait.waitMillis, reason: wait.reason })
        )
    }).pipe(Effect.provide(FetchHttpClient.layer))
  const client = Layer.scoped(FeeShareClient.FeeShareClient, clientWith(Option.getOrUndefined(options.apiKey)))
  const environment = Layer.succeed(Handlers.Environment, {
    policy: options.policy,
    signers: options.signers,
    hasApiKey: Option.isSome(options.apiKey),
    clientWith
  })
  const services = Layer.mergeAll(client, ChainRpc.layer(options.rpcUrl), environment)
  return Layer.mergeAll(ToolArguments.layer(toolkit).pipe(Layer.provide(Handlers.layer)), Resources.layer).pipe(
    Layer.provide(services)
  )
}

/**
 * The whole server on stdio, as a layer (launch it with `Layer.launch`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStdio = (options: Options) =>
  serverLayer(options).pipe(
    Layer.provide(McpServer.layerStdio({
      name: options.name ?? "feeshare",
      version: options.version,
      stdin: NodeStream.stdin,
      stdout: NodeSink.stdout
    }))
  )

/**
 * The path the streamable-HTTP transport serves.
 *
 * @since 0.1.0
 * @category constants
 */
export const httpPath = "/mcp"

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Whether `origin` is this server on loopback (`http://127.0.0.1:PORT`, `http://localhost:PORT`,
 * `http://[::1]:PORT`): a page of another site (DNS rebinding included) never is.
 *
 * @since 0.1.0
 * @category http
 */
export const isLoopbackOrigin = (origin: string, port: number): boolean =>
  [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(origin.toLowerCase())

/**
 * Refuses a request from a foreign `Origin` or `Host` (403) and one without the bearer token
 * (401) before the MCP server sees it. A request without `Origin` (not from a browser) passes
 * the Origin check.
 *
 * @since 0.1.0
 * @category http
 */
export const guard = (token: Redacted.Redacted<string>, port: number) =>
  HttpMiddleware.make((app) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const origin = request.headers["origin"]
      const host = request.headers["host"] ?? ""
      if ((origin !== undefined && !isLoopbackOrigin(origin, port)) || !isLoopbackOrigin(`http://${host}`, port)) {
        return HttpServerResponse.text("forbidden: not a loopback origin", { status: 403 })
      }
      if (!sameSecret(request.headers["authorization"] ?? "", `Bearer ${Redacted.value(token)}`)) {
        return HttpServerResponse.text("unauthorized: the bearer token printed at start is required", {
          status: 401,
          headers: { "www-authenticate": "Bearer" }
        })
      }
      // strict JSON-RPC: a body over 1 MiB is a 413, bad JSON a 400 parse error, a wrong version,
      // an oversized batch or a deep nesting a 400 invalid request, each answered as JSON-RPC
      return yield* StrictJsonRpc.guard(app)
    })
  )

/**
 * The whole server as streamable HTTP on `127.0.0.1:port` (0: a free port) at `httpPath`,
 * behind `guard(token)`; `onListening` is told the URL.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttp = (
  options: Options & {
    readonly port: number
    readonly token: Redacted.Redacted<string>
    readonly onListening: (url: string) => Effect.Effect<void>
  }
) =>
  Layer.mergeAll(
    serverLayer(options),
    Layer.unwrapEffect(Effect.map(HttpServer.HttpServer, ({ address }) =>
      HttpRouter.Default.serve(guard(options.token, address._tag === "TcpAddress" ? address.port : 0)))),
    Layer.effectDiscard(HttpServer.addressFormattedWith((address) =>
      options.onListening(`${address}${httpPath}`)
    ))
  ).pipe(
    Layer.provide(McpServer.layerHttp({ name: options.name ?? "feeshare", version: options.version, path: httpPath })),
    Layer.provide(NodeHttpServer.layer(createServer, { port: options.port, host: "127.0.0.1" }))
  )

/**
 * The shortest bearer token `layerHttp` may be given (`FEESHARE_MCP_TOKEN`); a shorter one is
 * refused at start.
 *
 * @since 0.1.0
 * @category http
 */
export const minTokenLength = 16

/**
 * A fresh bearer token for `layerHttp` (32 random bytes, hex).
 *
 * @since 0.1.0
 * @category http
 */
export const makeToken = (): Redacted.Redacted<string> => {
  const bytes = new Uint8Array(32)
  globalThis.crypto.getRandomValues(bytes)
  return Redacted.make(Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""))
}

/**
 * Serves on stdio until stdin closes or the process is interrupted.
 *
 * @since 0.1.0
 * @category running
 */
export const serveStdio = (options: Options): Effect.Effect<never, unknown, FileSystem.FileSystem> =>
  Layer.launch(layerStdio(options))
