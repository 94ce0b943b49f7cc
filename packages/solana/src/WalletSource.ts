/**
 * Where wallets' keys come from, written once for every program that signs unattended (the
 * keeper, the MCP server): a solana-keygen JSON file, every `*.json` file of a directory, or
 * an environment variable holding the keygen JSON array. One Schema for the configuration
 * entry, one loader, the same errors and messages everywhere.
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import type { Signer } from "@feeshare/domain"
import { Effect, Schema } from "effect"
import * as LocalSigner from "./LocalSigner.js"

/**
 * A solana-keygen JSON file (relative paths from the configuration's directory).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Keypair = Schema.Struct({ keypair: Schema.NonEmptyString })

/**
 * Every `*.json` file of a directory, in name order.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Directory = Schema.Struct({ directory: Schema.NonEmptyString })

/**
 * An environment variable holding the keygen JSON array.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Env = Schema.Struct({ env: Schema.NonEmptyString })

/**
 * Where a wallet's key comes from: `{ keypair }`, `{ directory }` or `{ env }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WalletSource = Schema.Union(Keypair, Directory, Env).annotations({ identifier: "WalletSource" })

/**
 * @since 0.1.0
 * @category models
 */
export type WalletSource = typeof WalletSource.Type

/**
 * A wallet's key could not be loaded (the message names the source, never the key).
 *
 * @since 0.1.0
 * @category errors
 */
export class WalletUnavailable extends Schema.TaggedError<WalletUnavailable>()("WalletUnavailable", {
  source: Schema.String,
  message: Schema.String
}) {}

/**
 * A loaded key and where it came from (a path or `env:NAME`), for messages.
 *
 * @since 0.1.0
 * @category models
 */
export interface Loaded {
  readonly signer: Signer.Signer.Service
  readonly source: string
}

/**
 * A path as given, or relative to `baseDir`.
 *
 * @since 0.1.0
 * @category paths
 */
export const resolvePath = (path: string, baseDir: string): string =>
  path.startsWith("/") ? path : `${baseDir.replace(/\/+$/, "")}/${path}`

/**
 * Loads the keys of one source (relative paths from `baseDir`): one for a file or a variable,
 * every `*.json` file for a directory. Any key that cannot be loaded fails the whole source
 * with `WalletUnavailable`; `environment` is where variables are read (default
 * `process.env`).
 *
 * @since 0.1.0
 * @category loading
 */
export const load = Effect.fn("WalletSource.load")(function*(
  source: WalletSource,
  baseDir: string,
  environment: Readonly<Record<string, string | undefined>> = process.env
) {
  const unavailable = (from: string) => (error: { readonly message: string }) =>
    new WalletUnavailable({ source: from, message: error.message })
  const file = (path: string) =>
    Effect.map(
      LocalSigner.fromKeygenFile(path).pipe(Effect.mapError(unavailable(path))),
      (signer): Loaded => ({ signer, source: path })
    )
  if ("keypair" in source) return [yield* file(resolvePath(source.keypair, baseDir))]
  if ("directory" in source) {
    const fs = yield* FileSystem.FileSystem
    const dir = resolvePath(source.directory, baseDir)
    const names = yield* fs.readDirectory(dir).pipe(
      Effect.mapError(() => new WalletUnavailable({ source: dir, message: `${dir}: the directory cannot be read` }))
    )
    return yield* Effect.forEach(names.filter((n) => n.endsWith(".json")).sort(), (name) => file(`${dir}/${name}`))
  }
  const from = `env:${source.env}`
  const text = environment[source.env]
  if (text === undefined || text === "") {
    return yield* new WalletUnavailable({ source: from, message: `${from}: the variable is not set` })
  }
  const secret = yield* LocalSigner.parseKeygenJson(text, from).pipe(Effect.mapError(unavailable(from)))
  const signer = yield* LocalSigner.fromSecretKey(secret, from).pipe(Effect.mapError(unavailable(from)))
  return [{ signer, source: from }]
})
