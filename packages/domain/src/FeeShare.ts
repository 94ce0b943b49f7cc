/**
 * Fee sharing: creating a token's fee-share config, replacing its claimers and their basis
 * points, partner claims, and the admin list.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"
import * as BasisPoints from "./BasisPoints.js"
import { ArrayBetween, optionalNullable } from "./internal/schema.js"
import { PublicKey } from "./PublicKey.js"
import { LamportsNumber } from "./RawAmount.js"
import { Base58Transaction } from "./WireTransaction.js"

/**
 * Limits and rules stated by the service.
 *
 * @since 0.1.0
 * @category constants
 */
export const limits = { minClaimers: 1, maxClaimers: 100, claimersWithoutLookupTables: 7 } as const

/**
 * Rule texts, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const rules = {
  sameLength: "must have as many entries as claimersArray",
  sum: "must sum to exactly 10000",
  duplicate: "must not repeat a claimer",
  lookupTables: "is required when there are more than 7 claimers"
} as const

/**
 * A transaction to sign, with the blockhash it was built against.
 *
 * @since 0.1.0
 * @category resources
 */
export const TransactionEntry = Schema.Struct({
  blockhash: Schema.Struct({ blockhash: Schema.String, lastValidBlockHeight: Schema.Number }),
  transaction: Base58Transaction
}).annotations({ identifier: "TransactionEntry" })

/**
 * @since 0.1.0
 * @category resources
 */
export type TransactionEntry = typeof TransactionEntry.Type

/**
 * `{ transactions: [entry] }`: the fee-share update and partner-claim answers.
 *
 * @since 0.1.0
 * @category resources
 */
export const TransactionEntries = Schema.Struct({ transactions: Schema.Array(TransactionEntry) }).annotations({
  identifier: "TransactionEntries"
})

/**
 * @since 0.1.0
 * @category resources
 */
export type TransactionEntries = typeof TransactionEntries.Type

const Claimers = ArrayBetween(PublicKey, limits.minClaimers, limits.maxClaimers).pipe(
  Schema.filter((claimers) => {
    const seen = new Set<string>()
    for (let i = 0; i < claimers.length; i++) {
      if (seen.has(claimers[i]!)) return { path: [i], message: rules.duplicate }
      seen.add(claimers[i]!)
    }
    return true
  })
)

/**
 * Body of the fee-share update: claimers and their basis points, aligned by index.
 *
 * @since 0.1.0
 * @category requests
 */
export const UpdateConfigRequest = Schema.Struct({
  baseMint: PublicKey,
  basisPointsArray: ArrayBetween(BasisPoints.BasisPoints, limits.minClaimers, limits.maxClaimers),
  claimersArray: Claimers,
  payer: PublicKey,
  additionalLookupTables: optionalNullable(Schema.Array(PublicKey))
}).pipe(
  Schema.filter((request) => {
    if (request.basisPointsArray.length !== request.claimersArray.length) {
      return { path: ["basisPointsArray"], message: rules.sameLength }
    }
    const sum = request.basisPointsArray.reduce((a, b) => a + b, 0)
    if (sum !== BasisPoints.total) return { path: ["basisPointsArray"], message: rules.sum }
    if (
      request.claimersArray.length > limits.claimersWithoutLookupTables &&
      (request.additionalLookupTables === undefined || request.additionalLookupTables === null ||
        request.additionalLookupTables.length === 0)
    ) return { path: ["additionalLookupTables"], message: rules.lookupTables }
    return true
  }),
  // the service refuses fields it does not know
  Schema.annotations({ identifier: "UpdateConfigRequest", parseOptions: { onExcessProperty: "error" } })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type UpdateConfigRequest = typeof UpdateConfigRequest.Type

/**
 * Body of the partner claim.
 *
 * @since 0.1.0
 * @category requests
 */
export const PartnerClaimRequest = Schema.Struct({ partnerWallet: PublicKey }).annotations({
  identifier: "PartnerClaimRequest"
})

/**
 * Token mints a wallet administers.
 *
 * @since 0.1.0
 * @category resources
 */
export const AdminTokens = Schema.Struct({ tokenMints: Schema.Array(Schema.String) }).annotations({
  identifier: "AdminTokens"
})

// ---------------------------------------------------------------------------
// config creation: `POST /fee-share/config`
// ---------------------------------------------------------------------------

/**
 * The seven `platformConfigType` values (the terms a new config gets: fees before and after
 * migration, compounding, locked supply, graduation).
 *
 * @since 0.1.0
 * @category constants
 */
export const configTypes = {
  /** 2 % before and after migration, 25 % compounding after it, graduation at about 85 SOL. */
  default: "fa29606e-5e48-4c37-827f-4b03d58ee23d",
  /** 0.25 % before, 1 % after, 50 % compounding, graduation at about 85 SOL. */
  lowBeforeHighAfter: "d16d3585-6488-4a6c-9a6f-e6c39ca0fda3",
  /** 1 % before, 0.25 % after, 50 % compounding, graduation at about 85 SOL. */
  highBeforeLowAfter: "a7c8e1f2-3d4b-5a6c-9e0f-1b2c3d4e5f6a",
  /** 10 % before and after, 50 % compounding, graduation at about 85 SOL. */
  highFlat: "48e26d2f-0a9d-4625-a3cc-c3987d874b9e",
  /** 2 % flat, 85 % of the supply locked, graduation at about 100 SOL. */
  locked85: "810faadb-030b-47de-a68b-7211c1cbbee3",
  /** The default terms with a 1 000-token supply. */
  default1kSupply: "e2963a6c-441a-4862-9d80-b94e3a481cd7",
  /** 2 % base, 96 % of the supply locked, a market-cap-based fee after migration, graduation at about 55 SOL. */
  locked96: "ba28db46-ea6f-4452-8218-5587f6aca0a1"
} as const

/**
 * A `platformConfigType`: one of `configTypes`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ConfigType = Schema.Literal(
  configTypes.default,
  configTypes.lowBeforeHighAfter,
  configTypes.highBeforeLowAfter,
  configTypes.highFlat,
  configTypes.locked85,
  configTypes.default1kSupply,
  configTypes.locked96
).annotations({ identifier: "ConfigType" })

/**
 * @since 0.1.0
 * @category schemas
 */
export type ConfigType = typeof ConfigType.Type

/**
 * The config type a request without `platformConfigType` gets: the reference's Default
 * (`fa29606e…`), not the official SDK's 96 %-locked one, which the SDK sends when none is given.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultConfigType: ConfigType = configTypes.default

/**
 * The share of the gross claimers pool the config's deployer (the request's `payer`) earns on
 * a new config, in basis points, taken before the claimers' split. No request field changes it.
 *
 * @since 0.1.0
 * @category constants
 */
export const deployerBps = 2_500

/**
 * Rule texts of config creation, as reported in `InvalidRequest.rule`.
 *
 * @since 0.1.0
 * @category rules
 */
export const createConfigRules = {
  ...rules,
  partner: "partner and partnerConfig go together",
  tip: "tipWallet and tipLamports go together"
} as const

const isMissing = <A>(value: A | null | undefined): value is null | undefined => value === undefined || value === null

const hasTables = (tables: ReadonlyArray<string> | null | undefined) => !isMissing(tables) && tables.length > 0

/**
 * The rules that tie the fields of a config creation together, as a pure check: the first
 * broken rule as its field and rule text, or `undefined`. Shared by the schema (client and
 * sandbox) and the property tests.
 *
 * @since 0.1.0
 * @category rules
 */
export const createConfigIssue = (request: {
  readonly claimersArray: ReadonlyArray<string>
  readonly basisPointsArray: ReadonlyArray<number>
  readonly partner?: string | null | undefined
  readonly partnerConfig?: string | null | undefined
  readonly additionalLookupTables?: ReadonlyArray<string> | null | undefined
  readonly tipWallet?: string | null | undefined
  readonly tipLamports?: number | null | undefined
}): { readonly field: string; readonly rule: string } | undefined => {
  if (request.basisPointsArray.length !== request.claimersArray.length) {
    return { field: "basisPointsArray", rule: createConfigRules.sameLength }
  }
  if (request.basisPointsArray.reduce((a, b) => a + b, 0) !== BasisPoints.total) {
    return { field: "basisPointsArray", rule: createConfigRules.sum }
  }
  if (isMissing(request.partner) !== isMissing(request.partnerConfig)) {
    return { field: isMissing(request.partner) ? "partner" : "partnerConfig", rule: createConfigRules.partner }
  }
  if (request.claimersArray.length > limits.claimersWithoutLookupTables && !hasTables(request.additionalLookupTables)) {
    return { field: "additionalLookupTables", rule: createConfigRules.lookupTables }
  }
  if (isMissing(request.tipWallet) !== isMissing(request.tipLamports)) {
    return { field: isMissing(request.tipWallet) ? "tipWallet" : "tipLamports", rule: createConfigRules.tip }
  }
  return undefined
}

/**
 * Body of config creation (`POST /fee-share/config`). The `payer` becomes the config's
 * deployer (`deployerBps` of the gross claimers pool). More than 7 claimers need
 * `additionalLookupTables`: the reference gives both 7 and 15 as the threshold, and 7 (the
 * lower, which update-config also uses) is the one that never sends a transaction too large.
 *
 * @since 0.1.0
 * @category requests
 */
export const CreateConfigRequest = Schema.Struct({
  payer: PublicKey,
  baseMint: PublicKey,
  claimersArray: Claimers,
  basisPointsArray: ArrayBetween(BasisPoints.BasisPoints, limits.minClaimers, limits.maxClaimers),
  partner: optionalNullable(PublicKey),
  partnerConfig: optionalNullable(PublicKey),
  additionalLookupTables: optionalNullable(Schema.Array(PublicKey)),
  platformConfigType: optionalNullable(ConfigType),
  enableFirstSwapWithMinFee: optionalNullable(Schema.Boolean),
  tipWallet: optionalNullable(PublicKey),
  tipLamports: optionalNullable(LamportsNumber)
}).pipe(
  Schema.filter((request) => {
    const issue = createConfigIssue(request)
    return issue === undefined || { path: [issue.field], message: issue.rule }
  }),
  Schema.annotations({ identifier: "CreateConfigRequest", parseOptions: { onExcessProperty: "error" } })
)

/**
 * @since 0.1.0
 * @category requests
 */
export type CreateConfigRequest = typeof CreateConfigRequest.Type

/**
 * The answer of config creation. `needsCreation: false` is a success: the config exists, keeps
 * its terms, and `meteoraConfigKey` is its key (no transactions). Otherwise each `bundles[i]`
 * is a group that must land together (all bundles are sent first), then `transactions` are
 * sent in order. `meteoraConfigKey` is the `configKey` of the launch.
 *
 * @since 0.1.0
 * @category resources
 */
export const CreateConfigAnswer = Schema.Struct({
  needsCreation: Schema.Boolean,
  feeShareAuthority: PublicKey,
  meteoraConfigKey: PublicKey,
  transactions: optionalNullable(Schema.Array(TransactionEntry)),
  bundles: optionalNullable(Schema.Array(Schema.Array(TransactionEntry)))
}).annotations({ identifier: "CreateConfigAnswer" })

/**
 * @since 0.1.0
 * @category resources
 */
export type CreateConfigAnswer = typeof CreateConfigAnswer.Type
