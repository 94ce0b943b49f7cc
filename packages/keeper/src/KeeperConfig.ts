/**
 * What the keeper claims and how: the wallets (key files, a directory of key files, or an
 * environment variable), per wallet a minimum claimable amount and token allow/deny lists,
 * the transaction format, the commitment, a cap on network fees per hour, and dry-run.
 * Loaded from a JSON or YAML file, validated by Schema with field-path errors. (Named
 * `Policy` before: renamed for what it governs, the keeper's configuration.)
 *
 * @since 0.1.0
 */
import { FileSystem } from "@effect/platform"
import { PublicKey, RawAmount, type Signer } from "@feeshare/domain"
import * as WalletSource from "@feeshare/solana/WalletSource"
import { Effect, Either, ParseResult, Schema } from "effect"
import * as Yaml from "yaml"

const Mints = Schema.Array(PublicKey.PublicKey)

/**
 * Which positions of a wallet are claimed. A wallet's own rules replace the defaults field by
 * field.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Rules = Schema.Struct({
  /** Positions whose claimable amount is below this are left alone. */
  minClaimableLamports: Schema.optionalWith(RawAmount.LamportsNumber, { exact: true }),
  /** Only these token mints (absent: every token). */
  allow: Schema.optionalWith(Mints, { exact: true }),
  /** Never these token mints. */
  deny: Schema.optionalWith(Mints, { exact: true })
})

/**
 * Where a wallet's key comes from (`WalletSource` of `@feeshare/solana`, the MCP server's too):
 * a solana-keygen JSON file, every `*.json` file of a directory, or an environment variable
 * holding the keygen JSON array; with the wallet's own rules.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WalletEntry = Schema.Union(
  Schema.Struct({ ...WalletSource.Keypair.fields, ...Rules.fields }),
  Schema.Struct({ ...WalletSource.Directory.fields, ...Rules.fields }),
  Schema.Struct({ ...WalletSource.Env.fields, ...Rules.fields })
).annotations({ identifier: "WalletEntry" })

/**
 * @since 0.1.0
 * @category schemas
 */
export type WalletEntry = typeof WalletEntry.Type

/**
 * The keeper's configuration file.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Config = Schema.Struct({
  wallets: Schema.Array(WalletEntry).pipe(Schema.minItems(1)),
  ...Rules.fields,
  transactionFormat: Schema.optionalWith(Schema.Literal("v0", "v1"), { exact: true, default: () => "v0" as const }),
  commitment: Schema.optionalWith(Schema.Literal("processed", "confirmed", "finalized"), {
    exact: true,
    default: () => "confirmed" as const
  }),
  /** Network fees (base + priority) the keeper may spend in any hour; absent: no cap. */
  maxFeesPerHourLamports: Schema.optionalWith(RawAmount.LamportsNumber, { exact: true }),
  /** Verify and report; never sign or send. */
  dryRun: Schema.optionalWith(Schema.Boolean, { exact: true, default: () => false }),
  /** The journal and workflow database (a SQLite file). */
  database: Schema.optionalWith(Schema.NonEmptyString, { exact: true, default: () => "feeshare-keeper.db" }),
  /**
   * A client-side budget of API requests (the client's `RateBudget`): the keeper stays under
   * `limit` requests in any `windowSeconds`. Absent: only the service's own headers.
   */
  rateBudget: Schema.optionalWith(
    Schema.Struct({ limit: Schema.Int.pipe(Schema.positive()), windowSeconds: Schema.Number.pipe(Schema.positive()) }),
    { exact: true }
  ),
  /** Seconds between passes of `keeper run`. */
  intervalSeconds: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { exact: true, default: () => 60 }),
  /** Wallets worked on at the same time. */
  concurrency: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 64)), { exact: true, default: () => 4 })
}).annotations({ identifier: "KeeperConfig" })

/**
 * @since 0.1.0
 * @category schemas
 */
export type Config = typeof Config.Type

/**
 * One problem of a configuration: where (`wallets.2.minClaimableLamports`) and what.
 *
 * @since 0.1.0
 * @category models
 */
export interface Issue {
  readonly path: string
  readonly message: string
}

/**
 * The configuration is unreadable or invalid; `issues` name every field at fault.
 *
 * @since 0.1.0
 * @category errors
 */
export class ConfigInvalid extends Schema.TaggedError<ConfigInvalid>()("ConfigInvalid", {
  source: Schema.String,
  issues: Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String })),
  message: Schema.String
}) {}

/**
 * A wallet's key could not be loaded (the message names the source, never the key).
 *
 * @since 0.1.0
 * @category errors
 */
export const WalletUnavailable = WalletSource.WalletUnavailable

/**
 * @since 0.1.0
 * @category errors
 */
export type WalletUnavailable = WalletSource.WalletUnavailable

const invalid = (source: string, issues: ReadonlyArray<Issue>) =>
  new ConfigInvalid({
    source,
    issues,
    message: `${source}: ${
      issues.map((issue) => issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`).join("; ")
    }`
  })

/**
 * Decodes a parsed configuration document.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (input: unknown, source = "keeper config"): Effect.Effect<Config, ConfigInvalid> =>
  Either.match(Schema.decodeUnknownEither(Config, { errors: "all", onExcessProperty: "error" })(input), {
    onRight: Effect.succeed,
    onLeft: (error) =>
      Effect.fail(invalid(
        source,
        ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
          path: issue.path.map(String).join("."),
          message: issue.message
        }))
      ))
  })

/**
 * Parses the text of a configuration file: YAML for `.yaml`/`.yml`, JSON otherwise.
 *
 * @since 0.1.0
 * @category decoding
 */
export const parse = (text: string, source: string): Effect.Effect<Config, ConfigInvalid> =>
  Effect.suspend(() => {
    const yaml = /\.ya?ml$/i.test(source)
    try {
      return decode(yaml ? Yaml.parse(text) : JSON.parse(text), source)
    } catch {
      return Effect.fail(invalid(source, [{ path: "", message: yaml ? "not valid YAML" : "not valid JSON" }]))
    }
  })

/**
 * Reads and validates a configuration file.
 *
 * @since 0.1.0
 * @category decoding
 */
export const load = Effect.fn("KeeperConfig.load")(function*(path: string) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(path).pipe(
    Effect.mapError(() => invalid(path, [{ path: "", message: "the file cannot be read" }]))
  )
  return yield* parse(text, path)
})

/**
 * Flags and environment that override the file.
 *
 * @since 0.1.0
 * @category models
 */
export type Overrides = {
  readonly [
    K in
      | "dryRun"
      | "database"
      | "transactionFormat"
      | "commitment"
      | "maxFeesPerHourLamports"
      | "minClaimableLamports"
      | "intervalSeconds"
      | "concurrency"
  ]?: Config[K] | undefined
}

/**
 * The configuration with the overrides that are set.
 *
 * @since 0.1.0
 * @category combinators
 */
export const override = (config: Config, overrides: Overrides): Config => {
  const set = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined))
  return { ...config, ...set }
}

/**
 * The rules that apply to one wallet.
 *
 * @since 0.1.0
 * @category models
 */
export interface WalletRules {
  readonly minClaimableLamports: number
  readonly allow: ReadonlyArray<string> | undefined
  readonly deny: ReadonlyArray<string>
}

/**
 * A wallet the keeper claims for.
 *
 * @since 0.1.0
 * @category models
 */
export interface Wallet {
  readonly signer: Signer.Signer.Service
  readonly rules: WalletRules
  /** Where the key came from (a path or `env:NAME`), for messages. */
  readonly source: string
}

/**
 * Whether a position of `mint` with `claimable` lamports passes the wallet's rules.
 *
 * @since 0.1.0
 * @category rules
 */
export const selects = (rules: WalletRules, mint: string, claimable: number): boolean =>
  claimable > 0 &&
  claimable >= rules.minClaimableLamports &&
  (rules.allow === undefined || rules.allow.includes(mint)) &&
  !rules.deny.includes(mint)

const rulesOf = (config: Config, entry: WalletEntry): WalletRules => ({
  minClaimableLamports: entry.minClaimableLamports ?? config.minClaimableLamports ?? 0,
  allow: entry.allow ?? config.allow,
  deny: entry.deny ?? config.deny ?? []
})

/**
 * Loads every wallet of the configuration (relative paths from `baseDir`). Two entries with
 * the same key are one wallet (the first entry's rules).
 *
 * @since 0.1.0
 * @category wallets
 */
export const wallets = Effect.fn("KeeperConfig.wallets")(function*(config: Config, baseDir: string) {
  const out: Array<Wallet> = []
  const seen = new Set<string>()
  for (const entry of config.wallets) {
    const rules = rulesOf(config, entry)
    for (const { signer, source } of yield* WalletSource.load(entry, baseDir)) {
      if (seen.has(signer.publicKey)) continue
      seen.add(signer.publicKey)
      out.push({ signer, rules, source })
    }
  }
  return out
})
