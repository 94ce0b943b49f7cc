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
import { Claims, PublicKey, RawAmount, type Signer } from "@feeshare/domain"
import * as WalletSource from "@feeshare/solana/WalletSource"
import { Effect, Either, ParseResult, Schema } from "effect"
import * as Yaml from "yaml"
import * as Item from "./Item.js"

const Mints = Schema.Array(PublicKey.PublicKey)

/**
 * The options of a position's claim plan (`ClaimPlanRequest` of `@feeshare/domain`, each
 * field the domain's own): the claimable `source`, the `quoteMint`, the `feeLimits` and the
 * `lookupTables` (the request's `additionalLookupTables`). Checked with the domain's rules
 * (`Claims.claimPlanIssue`) when the configuration is read. Vault sweeps and deployer claims
 * take no plan options.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PlanOptions = Schema.Struct({
  source: Schema.optionalWith(Claims.ClaimSource, { exact: true }),
  quoteMint: Schema.optionalWith(PublicKey.PublicKey, { exact: true }),
  feeLimits: Schema.optionalWith(
    Schema.Array(Claims.FeeLimit).pipe(Schema.maxItems(Claims.limits.feeLimits)),
    { exact: true }
  ),
  lookupTables: Schema.optionalWith(
    Schema.Array(PublicKey.PublicKey).pipe(Schema.maxItems(Claims.limits.additionalLookupTables)),
    { exact: true }
  )
}).annotations({ identifier: "PlanOptions" })

/**
 * @since 0.1.0
 * @category schemas
 */
export type PlanOptions = typeof PlanOptions.Type

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
  deny: Schema.optionalWith(Mints, { exact: true }),
  /** What is claimed: `position`, `vault`, `deployer` (absent: all three). */
  kinds: Schema.optionalWith(Schema.Array(Item.Kind).pipe(Schema.minItems(1)), { exact: true }),
  /**
   * Claim only when it pays: an item whose network fees plus rent (read from its verified
   * transactions) exceed this fraction of what it would claim is skipped. Absent: every item
   * is claimed whatever it costs.
   */
  maxCostFraction: Schema.optionalWith(
    Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(1)),
    { exact: true }
  ),
  /** The plan options of every position. */
  plan: Schema.optionalWith(PlanOptions, { exact: true }),
  /** The plan options of the positions in these token mints (over `plan`, field by field). */
  tokens: Schema.optionalWith(Schema.Record({ key: PublicKey.PublicKey, value: PlanOptions }), { exact: true })
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
 * The first broken rule of the domain's claim-plan rules (`Claims.claimPlanIssue`) in one set
 * of plan options, its path in the options' own names (`lookupTables`); `tokenMint` when the
 * options are a token's.
 *
 * @since 0.1.0
 * @category rules
 */
export const planOptionsIssue = (
  options: PlanOptions,
  transactionFormat: Claims.TransactionFormat,
  tokenMint?: string
): { readonly path: ReadonlyArray<string | number>; readonly message: string } | undefined => {
  const issue = Claims.claimPlanIssue({
    tokenMint: tokenMint ?? "",
    quoteMint: options.quoteMint,
    transactionFormat,
    feeLimits: options.feeLimits,
    additionalLookupTables: options.lookupTables
  })
  if (issue === undefined) return undefined
  const [head, ...rest] = issue.path
  return { path: [head === "additionalLookupTables" ? "lookupTables" : head ?? "", ...rest], message: issue.rule }
}

/** Every set of plan options in a configuration (top level, per wallet, per token) checked, with its path. */
/**
 * Where plan options are set: `plan` for every position, `tokens` per token mint (the
 * configuration's top level and each wallet entry).
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanOptionsHolder {
  readonly plan?: PlanOptions | undefined
  readonly tokens?: Readonly<Record<string, PlanOptions>> | undefined
}

const planIssues = (
  config: PlanOptionsHolder & {
    readonly transactionFormat: Claims.TransactionFormat
    readonly wallets: ReadonlyArray<PlanOptionsHolder>
  }
): Array<Schema.FilterIssue> => {
  const issues: Array<Schema.FilterIssue> = []
  const check = (prefix: ReadonlyArray<PropertyKey>, options: PlanOptionsHolder) => {
    if (options.plan !== undefined) {
      const issue = planOptionsIssue(options.plan, config.transactionFormat)
      if (issue !== undefined) issues.push({ path: [...prefix, "plan", ...issue.path], message: issue.message })
    }
    for (const [mint, tokenOptions] of Object.entries(options.tokens ?? {})) {
      const issue = planOptionsIssue(tokenOptions, config.transactionFormat, mint)
      if (issue !== undefined) {
        issues.push({ path: [...prefix, "tokens", mint, ...issue.path], message: issue.message })
      }
    }
  }
  check([], config)
  config.wallets.forEach((wallet, i) => check(["wallets", i], wallet))
  return issues
}

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
}).pipe(
  Schema.filter((config) => planIssues(config)),
  Schema.annotations({ identifier: "KeeperConfig" })
)

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
  /** What is claimed for the wallet. */
  readonly kinds: ReadonlySet<Item.Kind>
  /** See `Rules.maxCostFraction`; undefined: claim whatever it costs. */
  readonly maxCostFraction: number | undefined
  /** The plan options of a position in `mint`. */
  readonly plan: (mint: string) => PlanOptions
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
export const selects = (
  rules: Pick<WalletRules, "minClaimableLamports" | "allow" | "deny">,
  mint: string,
  claimable: number
): boolean =>
  claimable > 0 &&
  claimable >= rules.minClaimableLamports &&
  (rules.allow === undefined || rules.allow.includes(mint)) &&
  !rules.deny.includes(mint)

/**
 * The plan options of a position in `mint`, field by field from the most specific: the wallet's
 * `tokens`, the configuration's `tokens`, the wallet's `plan`, the configuration's `plan`.
 *
 * @since 0.1.0
 * @category rules
 */
export const planOptionsOf = (config: PlanOptionsHolder, entry: PlanOptionsHolder, mint: string): PlanOptions => {
  const layers = [config.plan, entry.plan, config.tokens?.[mint], entry.tokens?.[mint]]
  const merged: { -readonly [K in keyof PlanOptions]?: PlanOptions[K] } = {}
  for (const options of layers) {
    if (options === undefined) continue
    if (options.source !== undefined) merged.source = options.source
    if (options.quoteMint !== undefined) merged.quoteMint = options.quoteMint
    if (options.feeLimits !== undefined) merged.feeLimits = options.feeLimits
    if (options.lookupTables !== undefined) merged.lookupTables = options.lookupTables
  }
  return merged
}

/**
 * The rules of a wallet when nothing is configured: every item of every kind, whatever it
 * costs, with the service's default plan.
 *
 * @since 0.1.0
 * @category rules
 */
export const defaultRules: WalletRules = {
  minClaimableLamports: 0,
  allow: undefined,
  deny: [],
  kinds: new Set(Item.kinds),
  maxCostFraction: undefined,
  plan: () => ({})
}

const rulesOf = (config: Config, entry: WalletEntry): WalletRules => ({
  minClaimableLamports: entry.minClaimableLamports ?? config.minClaimableLamports ?? 0,
  allow: entry.allow ?? config.allow,
  deny: entry.deny ?? config.deny ?? [],
  kinds: new Set(entry.kinds ?? config.kinds ?? Item.kinds),
  maxCostFraction: entry.maxCostFraction ?? config.maxCostFraction,
  plan: (mint) => planOptionsOf(config, entry, mint)
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
