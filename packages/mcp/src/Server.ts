/**
 * The MCP server: the toolkit over stdio (JSON-RPC lines on stdout, nothing else there), with
 * the client, the chain, the policy and the wallets it may sign with.
 *
 * @since 0.1.0
 */
import { McpServer } from "@effect/ai"
import { FetchHttpClient, FileSystem } from "@effect/platform"
import { NodeSink, NodeStream } from "@effect/platform-node"
import * as FeeShareClient from "@feeshare/client/FeeShareClient"
import type { Signer } from "@feeshare/domain"
import * as ChainRpc from "@feeshare/solana/ChainRpc"
import * as LocalSigner from "@feeshare/solana/LocalSigner"
import { Effect, Layer, Option, type Redacted } from "effect"
import { dirname, isAbsolute, resolve } from "node:path"
import * as Handlers from "./Handlers.js"
import * as Policy from "./Policy.js"
import * as Resources from "./Resources.js"
import { toolkit } from "./Tools.js"

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
  readonly policy: Policy.Policy
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
  const loaded = Option.isSome(options.policyFile) ? yield* Policy.load(options.policyFile.value) : yield* Policy.decode({})
  const policy: Policy.Policy = options.readOnly ? { ...loaded, readOnly: true } : loaded
  if (policy.readOnly) return { policy, signers: [] as ReadonlyArray<Signer.Signer.Service> }
  const base = Option.isSome(options.policyFile) ? dirname(resolve(options.policyFile.value)) : process.cwd()
  const files = [...Option.toArray(options.keypair), ...policy.wallets.map((file) => (isAbsolute(file) ? file : resolve(base, file)))]
  const signers = yield* Effect.forEach(files, (file) => LocalSigner.fromKeygenFile(file))
  return { policy, signers }
})

/**
 * The whole server on stdio, as a layer (launch it with `Layer.launch`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStdio = (options: Options) => {
  const clientWith = (apiKey: Redacted.Redacted<string> | undefined) =>
    FeeShareClient.make({ baseUrl: options.baseUrl, apiKey, retry: { maxAttempts: 3 } }).pipe(Effect.provide(FetchHttpClient.layer))
  const client = Layer.scoped(FeeShareClient.FeeShareClient, clientWith(Option.getOrUndefined(options.apiKey)))
  const environment = Layer.succeed(Handlers.Environment, {
    policy: options.policy,
    signers: options.signers,
    hasApiKey: Option.isSome(options.apiKey),
    clientWith
  })
  const services = Layer.mergeAll(client, ChainRpc.layer(options.rpcUrl), environment)
  return Layer.mergeAll(McpServer.toolkit(toolkit).pipe(Layer.provide(Handlers.layer)), Resources.layer).pipe(
    Layer.provide(services),
    Layer.provide(McpServer.layerStdio({
      name: options.name ?? "feeshare",
      version: options.version,
      stdin: NodeStream.stdin,
      stdout: NodeSink.stdout
    }))
  )
}

/**
 * Serves on stdio until stdin closes or the process is interrupted.
 *
 * @since 0.1.0
 * @category running
 */
export const serveStdio = (options: Options): Effect.Effect<never, unknown, FileSystem.FileSystem> =>
  Layer.launch(layerStdio(options))
